package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Vert.x core's {@code HttpClient} as an app (or WebClient, or a Quarkus REST client) uses it:
 * {@code request(options)}, then {@code send()} / {@code send(Buffer)}, or a body written in pieces
 * ({@code write}, then {@code end}); the response read whole with {@code body()}; a call cancelled with the
 * request's {@code reset()}.
 */
public final class VertxFace implements ClientFace {
    private final Vertx vertx;
    private final HttpClient client;
    private final boolean followRedirects;

    /** @param client the client the app built on {@code vertx} (in library mode, managed) */
    public VertxFace(Vertx vertx, HttpClient client, boolean followRedirects) {
        this.vertx = vertx;
        this.client = client;
        this.followRedirects = followRedirects;
    }

    @Override
    public boolean async() {
        return true;
    }

    @Override
    public Running start(Call call) {
        AtomicReference<HttpClientRequest> made = new AtomicReference<>();
        RequestOptions options = new RequestOptions()
                .setMethod(HttpMethod.valueOf(call.method()))
                .setAbsoluteURI(call.url())
                .setFollowRedirects(followRedirects);
        Future<Reply> reply = client.request(options)
                .compose(request -> {
                    made.set(request);
                    return send(request, call);
                })
                .compose(response -> response.body().map(body -> new Reply(response.statusCode(), body.toString())));
        CompletableFuture<Reply> outcome = reply.toCompletionStage().toCompletableFuture();
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                HttpClientRequest request = made.get();
                if (request != null) {
                    request.reset();
                }
            }
        };
    }

    private static Future<HttpClientResponse> send(HttpClientRequest request, Call call) {
        if (call.kind() == Body.REPEATABLE) {
            request.putHeader("Content-Type", "application/json");
            return request.send(Buffer.buffer(call.body()));
        }
        if (call.kind() == Body.STREAMED) {
            request.setChunked(true);
            String body = call.body();
            int half = body.length() / 2;
            request.write(body.substring(0, half));
            request.end(body.substring(half));
            return request.response();
        }
        return request.send();
    }

    @Override
    public void close() {
        client.close();
        vertx.close()
                .toCompletionStage()
                .toCompletableFuture()
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }
}
