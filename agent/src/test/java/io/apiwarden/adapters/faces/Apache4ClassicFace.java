package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.http.HttpResponse;
import org.apache.http.client.ServiceUnavailableRetryStrategy;
import org.apache.http.client.methods.HttpUriRequest;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.http.entity.ContentType;
import org.apache.http.entity.InputStreamEntity;
import org.apache.http.entity.StringEntity;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.protocol.HttpContext;
import org.apache.http.util.EntityUtils;

/** Apache HttpClient 4's classic client: {@code execute} with a response handler, cancelled with the request's {@code abort()}. */
public final class Apache4ClassicFace implements ClientFace {
    private final CloseableHttpClient client;
    private final int ownRetriesOfARateLimit;

    public Apache4ClassicFace(CloseableHttpClient client) {
        this(client, 0);
    }

    /** @param ownRetriesOfARateLimit how often the client's own strategy sends a 429 again (see {@link #retryingARateLimitOnce}) */
    public Apache4ClassicFace(CloseableHttpClient client, int ownRetriesOfARateLimit) {
        this.client = client;
        this.ownRetriesOfARateLimit = ownRetriesOfARateLimit;
    }

    /**
     * {@code builder} with a retry strategy of the app's that sends a 429 once more, at once: the client's
     * {@code ServiceUnavailableRetryExec} then resends the request the agent gave up on (by default the
     * client retries no response).
     */
    public static HttpClientBuilder retryingARateLimitOnce(HttpClientBuilder builder) {
        return builder.setServiceUnavailableRetryStrategy(new ServiceUnavailableRetryStrategy() {
            @Override
            public boolean retryRequest(HttpResponse response, int executionCount, HttpContext context) {
                return response.getStatusLine().getStatusCode() == 429 && executionCount <= 1;
            }

            @Override
            public long getRetryInterval() {
                return 0;
            }
        });
    }

    @Override
    public int ownRetriesOfARateLimit() {
        return ownRetriesOfARateLimit;
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
