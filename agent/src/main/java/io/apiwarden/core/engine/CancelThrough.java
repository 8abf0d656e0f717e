package io.apiwarden.core.engine;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A client's future for one attempt, mapped to the engine's {@link Attempt}, whose
 * {@code cancel} reaches the client's own future: a dependent stage made with
 * {@code thenApply} would be cancelled alone, leaving the request on the wire.
 */
public final class CancelThrough<S, A> extends CompletableFuture<A> {
    private final CompletableFuture<S> source;

    private CancelThrough(CompletableFuture<S> source) {
        this.source = source;
    }

    /**
     * {@code source} mapped through {@code toAttempt}; a failure of either completes the result
     * with that failure as it is.
     */
    public static <S, A> CancelThrough<S, A> map(
            CompletableFuture<S> source, Function<? super S, ? extends A> toAttempt) {
        CancelThrough<S, A> mapped = new CancelThrough<>(source);
        source.whenComplete((response, failure) -> {
            if (failure != null) {
                mapped.completeExceptionally(failure);
                return;
            }
            try {
                mapped.complete(toAttempt.apply(response));
            } catch (RuntimeException | Error e) {
                mapped.completeExceptionally(e);
            }
        });
        return mapped;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        source.cancel(mayInterruptIfRunning);
        return super.cancel(mayInterruptIfRunning);
    }
}
