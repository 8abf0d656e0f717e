package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One attempt's response, its status and headers in, classified and judged. It is paused as it arrives, so
 * that none of its body is lost while the engine decides (possibly on another thread); the request hands it to
 * the app and resumes it, or a discarded one is resumed with no handler, which drains it and frees its connection.
 */
final class VertxAttempt extends JudgedAttempt<HttpClientResponse>
        implements Attempt.Async<HttpClientResponse>, Judge.BodyPrefix {
    private final HttpClientResponse response;

    VertxAttempt(HttpClientResponse response, Judge judge, OnTheWire wire) {
        this.response = response;
        judge(judge, this, wire);
    }

    /**
     * Vert.x has no way to look at a body and leave it whole for the app, so an error that status and headers
     * leave open is classified by its status (the engine's rule for a body that cannot be read). The spec's
     * two errors are a 401 and a 429, which need no body.
     */
    @Override
    public byte[] read(int limit) throws IOException {
        throw new IOException("a Vert.x response body is left for the app");
    }

    @Override
    public int status() {
        return response.statusCode();
    }

    @Override
    public String protocolVersion() {
        HttpVersion v = response.version();
        if (v == HttpVersion.HTTP_2) {
            return "2";
        }
        return v == HttpVersion.HTTP_1_0 ? "1.0" : "1.1";
    }

    @Override
    public Function<String, List<String>> headers() {
        return response.headers()::getAll;
    }

    @Override
    public String retryAfter() {
        return response.getHeader("Retry-After");
    }

    @Override
    public CompletionStage<HttpClientResponse> deliverAsync() {
        return CompletableFuture.completedFuture(response);
    }

    @Override
    public void discard() {
        try {
            response.handler(null);
            response.resume();
        } catch (RuntimeException e) {
            // Already ended or closed: nothing is held.
        }
    }
}
