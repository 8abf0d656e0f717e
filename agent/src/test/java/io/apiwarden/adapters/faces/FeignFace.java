package io.apiwarden.adapters.faces;

import feign.Client;
import feign.DefaultClient;
import feign.Feign;
import feign.Headers;
import feign.Request;
import feign.RequestLine;
import feign.Response;
import feign.Target;
import feign.Util;
import io.apiwarden.adapters.ClientFace;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * OpenFeign on its default client ({@code feign.DefaultClient}, {@code Client.Default} before Feign 13.7; so
 * {@code HttpURLConnection}): an interface
 * whose methods return Feign's {@code Response}, which Feign hands over whatever the status (no error decoder
 * in the way). Feign holds every body as bytes and its default client writes it once, in fixed-length
 * streaming mode: a body the connection cannot send again, whichever way the app made it, so a streamed
 * call here is that same write. Cancelled by interrupting the app's thread (Feign has no cancel).
 */
public final class FeignFace implements ClientFace {
    /** The API as the app declares it; the URI parameter is where each call goes. */
    interface Items {
        @RequestLine("GET")
        Response get(URI uri);

        @RequestLine("POST")
        @Headers("Content-Type: application/json")
        Response post(URI uri, String json);
    }

    private final Items items;

    /** @param client the client Feign calls through; null for Feign's default ({@code new DefaultClient(null, null)}) */
    public FeignFace(Client client, boolean followRedirects) {
        Feign.Builder builder = Feign.builder()
                .options(new Request.Options(10, TimeUnit.SECONDS, 10, TimeUnit.SECONDS, followRedirects));
        if (client != null) {
            builder.client(client);
        }
        this.items = builder.target(Target.EmptyTarget.create(Items.class));
    }

    /**
     * Feign's default client, opening its connections through {@code opener} (library mode's entry), as an
     * app hooks it: the default client's {@code getConnection}.
     */
    public static Client defaultClient(HttpUrlConnectionFace.Opener opener) {
        return new DefaultClient(null, null) {
            @Override
            public java.net.HttpURLConnection getConnection(java.net.URL url) throws IOException {
                return opener.open(url);
            }
        };
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        URI uri = URI.create(call.url());
        return Blocking.start(
                () -> {
                    try (Response response = call.kind() == Body.NONE ? items.get(uri) : items.post(uri, call.body())) {
                        return new Reply(response.status(), text(response));
                    }
                },
                Thread::interrupt);
    }

    private static String text(Response response) throws IOException {
        if (response.body() == null) {
            return "";
        }
        try (Reader in = response.body().asReader(StandardCharsets.UTF_8)) {
            return Util.toString(in);
        }
    }

    @Override
    public void close() {
        // Feign's default client keeps nothing; connections are the JDK's.
    }
}
