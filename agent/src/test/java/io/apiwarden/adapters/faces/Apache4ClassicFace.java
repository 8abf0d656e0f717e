package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.http.HttpResponse;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.InputStreamEntity;
import org.apache.http.entity.StringEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.util.EntityUtils;

/** Apache HttpClient 4's classic client: {@code execute} with a response handler, cancelled with the request's {@code abort()}. */
public final class Apache4ClassicFace implements ClientFace {
    private final CloseableHttpClient client;

    public Apache4ClassicFace(CloseableHttpClient client) {
        this.client = client;
    }

    /** {@code builder} set up as the app sets it, following redirects or not. */
    public static HttpClientBuilder configure(HttpClientBuilder builder, boolean followRedirects) {
        return followRedirects ? builder : builder.disableRedirectHandling();
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        RequestBuilder request = RequestBuilder.create(call.method()).setUri(call.url());
        if (call.kind() == Body.REPEATABLE) {
            request.setEntity(new StringEntity(call.body(), ContentType.APPLICATION_JSON));
        } else if (call.kind() == Body.STREAMED) {
            // A stream of no declared length: sent chunked, readable once.
            request.setEntity(new InputStreamEntity(
                    new ByteArrayInputStream(call.body().getBytes(StandardCharsets.UTF_8)),
                    -1,
                    ContentType.APPLICATION_JSON));
        }
        HttpUriRequest built = request.build();
        return Blocking.start(
                () -> client.execute(built, r -> new Reply(r.getStatusLine().getStatusCode(), text(r))),
                thread -> built.abort());
    }

    private static String text(HttpResponse response) throws IOException {
        return response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
