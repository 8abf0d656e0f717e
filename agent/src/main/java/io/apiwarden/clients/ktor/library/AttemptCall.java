package io.apiwarden.clients.ktor.library;

import io.apiwarden.core.engine.Judge;
import io.ktor.client.request.HttpResponseData;
import java.util.concurrent.CompletableFuture;
import kotlin.Result;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.CompletableJob;

/**
 * One attempt: the continuation the engine's {@code execute} resumes with the attempt's response, and the future of
 * it that the driver waits on. The attempt runs in a job of its own ({@code job}, in {@link #getContext}), so that
 * its connection and body reader end with it and cancelling it cancels the engine's work in flight.
 */
final class AttemptCall extends CompletableFuture<KtorAttempt> implements Continuation<HttpResponseData> {
    private final CoroutineContext context;
    private final CompletableJob job;
    private final CoroutineContext callContext;
    private final Judge judge;

    AttemptCall(CoroutineContext context, CompletableJob job, CoroutineContext callContext, Judge judge) {
        this.context = context;
        this.job = job;
        this.callContext = callContext;
        this.judge = judge;
    }

    @Override
    public CoroutineContext getContext() {
        return context;
    }

    /** {@code result} is the response, or Kotlin's failure holding what the engine raised. */
    @Override
    public void resumeWith(Object result) {
        if (result instanceof Result.Failure) {
            job.cancel(null);
            completeExceptionally(((Result.Failure) result).exception);
            return;
        }
        KtorAttempt attempt;
        try {
            attempt = new KtorAttempt((HttpResponseData) result, job, callContext, judge);
        } catch (RuntimeException | Error e) {
            job.cancel(null);
            completeExceptionally(e);
            return;
        }
        if (!complete(attempt)) {
            // Cancelled meanwhile: the response goes nowhere.
            attempt.discard();
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            // Still on its way: the engine's suspended work in the attempt's job ends (its connection too).
            job.cancel(null);
        }
        return cancelled;
    }
}
