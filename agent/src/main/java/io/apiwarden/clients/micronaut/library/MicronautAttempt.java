package io.apiwarden.clients.micronaut.library;

import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.micronaut.http.HttpResponse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * One attempt's answer as the rest of Micronaut's chain gave it, classified and judged. A response that goes to the
 * app is handed on untouched (or its exception, as Micronaut raised it).
 */
final class MicronautAttempt extends JudgedAttempt<Reply> implements Attempt.Async<Reply>, Judge.BodyPrefix {
    private final Reply reply;

    MicronautAttempt(Reply reply, AttemptElement element, Judge judge) {
        this.reply = reply;
        judge(judge, this, element.leftTheApi() ? OnTheWire.LEFT_THE_API : OnTheWire.AS_PREPARED);
    }

    /**
     * Classification is by status and headers: below the app's way of reading the response (buffered, streamed,
     * decoded into the app's type) the filter cannot read a body and leave it whole for every one of them. The
     * spec's errors are a 401 and a 429, which need no body.
     */
    @Override
    public byte[] read(int limit) throws IOException {
        throw new IOException("a Micronaut response body is left for the app");
    }

    @Override
    public int status() {
        return reply.response.code();
    }

    @Override
    public String protocolVersion() {
        // Micronaut's response does not say; its client speaks HTTP/1.1 unless configured for HTTP/2.
        return "1.1";
    }

    @Override
    public Function<String, List<String>> headers() {
        return headersOf(reply.response);
    }

    static Function<String, List<String>> headersOf(HttpResponse<?> response) {
        return name -> response.getHeaders().getAll(name);
    }

    @Override
    public String retryAfter() {
        return reply.response.getHeaders().get("Retry-After");
    }

    @Override
    public CompletionStage<Reply> deliverAsync() {
        return CompletableFuture.completedFuture(reply);
    }

    /** A buffered answer (every error Micronaut raises) holds nothing; a streamed one is closed, freeing its connection. */
    @Override
    public void discard() {
        if (reply.response instanceof AutoCloseable) {
            try {
                ((AutoCloseable) reply.response).close();
            } catch (Exception e) {
                // Nothing more to free.
            }
        }
    }
}
