package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.ParseException;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;

/** Apache HttpClient 5's classic client: {@code execute} with a response handler, cancelled with the request's {@code cancel()}. */
public final class ApacheClassicFace implements ClientFace {
    private final CloseableHttpClient client;

    public ApacheClassicFace(CloseableHttpClient client) {
        this.client = client;
    }

    /** A client as the app builds it, following redirects or not. */
    public static HttpClientBuilder builder(boolean followRedirects) {
        HttpClientBuilder builder = HttpClientBuilder.create();
        return followRedirects ? builder : builder.disableRedirectHandling();
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        HttpUriRequestBase request = new HttpUriRequestBase(call.method(), URI.create(call.url()));
        if (call.kind() == Body.REPEATABLE) {
            request.setEntity(new StringEntity(call.body(), ContentType.APPLICATION_JSON));
        } else if (call.kind() == Body.STREAMED) {
            // A stream of no declared length: sent chunked, readable once.
            request.setEntity(new InputStreamEntity(
                    new ByteArrayInputStream(call.body().getBytes(StandardCharsets.UTF_8)),
                    -1,
                    ContentType.APPLICATION_JSON));
        }
        return Blocking.start(
                () -> client.execute(request, r -> new Reply(r.getCode(), text(r))), thread -> request.cancel());
    }

    private static String text(org.apache.hc.core5.http.ClassicHttpResponse response) throws IOException {
        try {
            return response.getEntity() == null
                    ? ""
                    : EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
        } catch (ParseException e) {
            throw new IOException(e);
        }
    }

    /** The client's default retry strategy sends a 429 once more, after a second or its {@code Retry-After}. */
    @Override
    public int ownRetriesOfARateLimit() {
        return 1;
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
