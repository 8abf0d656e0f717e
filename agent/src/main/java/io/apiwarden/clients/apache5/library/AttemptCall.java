package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.Judge;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import org.apache.hc.client5.http.async.AsyncExecCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncDataConsumer;

/**
 * One attempt of an {@link AsyncExchange} on its way down the exec chain: the callback the rest of
 * the chain answers, and the engine's future of the attempt, which completes once the response is
 * classified (at its head, or after a bounded prefix of its body).
 */
final class AttemptCall extends CompletableFuture<Attempt.Async<HttpResponse>> implements AsyncExecCallback {
    /** Completes when the attempt's exchange is over (its connection free again), whatever became of the response. */
    final CompletableFuture<Void> over = new CompletableFuture<>();

    private final AsyncExchange exchange;
    private final ResponseClassifier classifier;
    private final Judge judge;
    private volatile AsyncAttempt response;

    AttemptCall(AsyncExchange exchange, ResponseClassifier classifier, Judge judge) {
        this.exchange = exchange;
        this.classifier = classifier;
        this.judge = judge;
    }

    @Override
    public AsyncDataConsumer handleResponse(HttpResponse head, EntityDetails details)
            throws HttpException, IOException {
        AsyncAttempt attempt = new AsyncAttempt(exchange, this, head, details, classifier, judge);
        response = attempt;
        if (attempt.isJudged()) {
            judged(attempt);
        }
        return attempt.bodyConsumer();
    }

    /** The response is classified and judged: the engine takes it from here. */
    void judged(AsyncAttempt attempt) {
        if (!complete(attempt)) {
            // The call was cancelled meanwhile: the response goes nowhere.
            attempt.discard();
        }
    }

    @Override
    public void handleInformationResponse(HttpResponse info) throws HttpException, IOException {
        exchange.informationResponse(info);
    }

    @Override
    public void completed() {
        ended(null);
    }

    @Override
    public void failed(Exception cause) {
        ended(cause);
    }

    private void ended(Exception failure) {
        AsyncAttempt attempt = response;
        if (attempt != null) {
            attempt.exchangeOver(failure);
            return;
        }
        // No response at all: the attempt failed (or, oddly, ended without one).
        if (failure == null) {
            failure = new IOException("the exchange ended without a response");
        }
        exchange.attemptOver(failure);
        over.complete(null);
        completeExceptionally(failure);
    }
}
