package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.StringRequestContent;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's client 12: the blocking {@code send()} and {@code send(listener)}, both cancelled with the request's
 * {@code abort(cause)}. A streamed body is an {@code InputStreamRequestContent} for the first and an
 * {@code AsyncRequestContent} for the second.
 */
public final class JettyFaces {
    private JettyFaces() {}

    /** A client as the app builds it, following redirects or not, started. */
    public static HttpClient started(HttpClient client, boolean followRedirects) throws Exception {
        client.setFollowRedirects(followRedirects);
        client.start();
        return client;
    }

    /** {@code request.send()}: blocks the app's thread. */
    public static ClientFace send(HttpClient client) {
        return new Face(client, false);
    }

    /** {@code request.send(listener)} with a buffering listener: holds no thread of the app's. */
    public static ClientFace listener(HttpClient client) {
        return new Face(client, true);
    }

    private static final class Face implements ClientFace {
        private final HttpClient client;
        private final boolean async;

        Face(HttpClient client, boolean async) {
            this.client = client;
            this.async = async;
        }

        @Override
        public boolean async() {
            return async;
        }

        @Override
        public Running start(Call call) {
            Request request = client.newRequest(call.url()).method(call.method());
            if (call.kind() == Body.REPEATABLE) {
                request.body(new StringRequestContent("application/json", call.body()));
            } else if (call.kind() == Body.STREAMED) {
                request.body(async ? asyncContent(call.body()) : streamContent(call.body()));
            }
            return async ? listen(request) : Blocking.start(() -> reply(request.send()), thread -> abort(request));
        }

        private static Running listen(Request request) {
            CompletableFuture<Reply> outcome = new CompletableFuture<>();
            request.send(new BufferingResponseListener() {
                @Override
                public void onComplete(Result result) {
                    if (result.isFailed()) {
                        outcome.completeExceptionally(result.getFailure());
                    } else {
                        outcome.complete(new Reply(result.getResponse().getStatus(), getContentAsString()));
                    }
                }
            });
            return new Running() {
                @Override
                public CompletableFuture<Reply> outcome() {
                    return outcome;
                }

                @Override
                public void cancel() {
                    abort(request);
                }
            };
        }

        private static void abort(Request request) {
            request.abort(new CancellationException("cancelled by the app"));
        }

        private static Reply reply(ContentResponse response) {
            return new Reply(response.getStatus(), response.getContentAsString());
        }

        /** A stream of no declared length: sent chunked, readable once. */
        private static Request.Content streamContent(String body) {
            return new InputStreamRequestContent(
                    "application/json", new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
        }

        /** Content the app writes and closes, as a producer would: sent chunked, once. */
        private static Request.Content asyncContent(String body) {
            AsyncRequestContent content = new AsyncRequestContent("application/json");
            content.write(ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), Callback.NOOP);
            content.close();
            return content;
        }

        @Override
        public void close() {
            try {
                client.stop();
            } catch (Exception e) {
                throw new IllegalStateException("the Jetty client did not stop", e);
            }
        }
    }
}
