package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.io.CloseMode;

/** Apache HttpClient 5's async client: {@code execute} with a callback, cancelled with the returned future's {@code cancel}. */
public final class ApacheAsyncFace implements ClientFace {
    private final CloseableHttpAsyncClient client;

    public ApacheAsyncFace(CloseableHttpAsyncClient client) {
        this.client = client;
        client.start();
    }

    /** A client as the app builds it, following redirects or not. */
    public static HttpAsyncClientBuilder builder(boolean followRedirects) {
        HttpAsyncClientBuilder builder = HttpAsyncClientBuilder.create();
        return followRedirects ? builder : builder.disableRedirectHandling();
    }

    @Override
    public boolean async() {
        return true;
    }

    @Override
    public Running start(Call call) {
        CompletableFuture<Reply> outcome = new CompletableFuture<>();
        Future<SimpleHttpResponse> future =
                client.execute(producer(call), SimpleResponseConsumer.create(), new FutureCallback<>() {
                    @Override
                    public void completed(SimpleHttpResponse response) {
                        outcome.complete(new Reply(
                                response.getCode(), response.getBodyText() == null ? "" : response.getBodyText()));
                    }

                    @Override
                    public void failed(Exception e) {
                        outcome.completeExceptionally(e);
                    }

                    @Override
                    public void cancelled() {
                        outcome.cancel(false);
                    }
                });
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                future.cancel(true);
            }
        };
    }

    private static AsyncRequestProducer producer(Call call) {
        if (call.kind() == Body.STREAMED) {
            return new BasicRequestProducer(call.method(), URI.create(call.url()), new OneShotProducer(call.body()));
        }
        SimpleRequestBuilder request =
                SimpleRequestBuilder.create(call.method()).setUri(call.url());
        if (call.kind() == Body.REPEATABLE) {
            request.setBody(call.body(), ContentType.APPLICATION_JSON);
        }
        return SimpleRequestProducer.create(request.build());
    }

    /** The client's default retry strategy sends a 429 once more, after a second or its {@code Retry-After}. */
    @Override
    public int ownRetriesOfARateLimit() {
        return 1;
    }

    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }
}
