package io.apiwarden.adapters.faces;

import com.google.api.client.http.ByteArrayContent;
import com.google.api.client.http.GenericUrl;
import com.google.api.client.http.HttpContent;
import com.google.api.client.http.HttpRequest;
import com.google.api.client.http.HttpResponse;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.InputStreamContent;
import com.google.api.client.http.javanet.NetHttpTransport;
import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/**
 * google-http-client on {@code NetHttpTransport} (so {@code HttpURLConnection}): {@code execute} with
 * {@code setThrowExceptionOnExecuteError(false)}, so that a 4xx or 5xx is a response (by default it is an
 * {@code HttpResponseException}). A repeatable body is a {@code ByteArrayContent}; a streamed one an
 * {@code InputStreamContent} of no declared length, which the transport writes once, chunked. The library
 * follows redirects itself (its connections never do). Cancelled by interrupting the app's thread.
 */
public final class GoogleHttpFace implements ClientFace {
    private final HttpTransport transport;
    private final boolean followRedirects;

    public GoogleHttpFace(HttpTransport transport, boolean followRedirects) {
        this.transport = transport;
        this.followRedirects = followRedirects;
    }

    /** {@code new NetHttpTransport()}, as an app makes it. */
    public static GoogleHttpFace plain(boolean followRedirects) {
        return new GoogleHttpFace(new NetHttpTransport(), followRedirects);
    }

    /** The transport opening its connections through {@code opener} (library mode's entry), through its {@code ConnectionFactory}. */
    public static NetHttpTransport transport(HttpUrlConnectionFace.Opener opener) {
        return new NetHttpTransport.Builder().setConnectionFactory(opener::open).build();
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        return Blocking.start(
                () -> {
                    HttpRequest request = transport
                            .createRequestFactory()
                            .buildRequest(call.method(), new GenericUrl(call.url()), content(call));
                    request.setFollowRedirects(followRedirects)
                            .setThrowExceptionOnExecuteError(false)
                            .setConnectTimeout(10_000)
                            .setReadTimeout(10_000);
                    HttpResponse response = request.execute();
                    try {
                        return new Reply(response.getStatusCode(), response.parseAsString());
                    } finally {
                        response.disconnect();
                    }
                },
                Thread::interrupt);
    }

    private static HttpContent content(Call call) {
        switch (call.kind()) {
            case REPEATABLE:
                return ByteArrayContent.fromString("application/json", call.body());
            case STREAMED:
                return new InputStreamContent(
                        "application/json", new ByteArrayInputStream(call.body().getBytes(StandardCharsets.UTF_8)));
            default:
                return null;
        }
    }

    @Override
    public void close() {
        // NetHttpTransport keeps nothing open; connections are the JDK's.
    }
}
