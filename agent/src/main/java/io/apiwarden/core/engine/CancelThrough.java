package io.apiwarden.core.engine;

import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A client's future for one attempt, mapped to the engine's {@link Attempt}, whose
 * {@code cancel} reaches the client's own future: a dependent stage made with
 * {@code thenApply} would be cancelled alone, leaving the request on the wire. As a {@link HandOverFuture}, it hands
 * the attempt to the call's next step itself.
 */
public final class CancelThrough<S, A> extends HandOverFuture<A> implements BiConsumer<S, Throwable> {
    private final CompletableFuture<S> source;
    private final Function<? super S, ? extends A> toAttempt;

    private CancelThrough(CompletableFuture<S> source, Function<? super S, ? extends A> toAttempt) {
        this.source = source;
        this.toAttempt = toAttempt;
    }

    /**
     * {@code source} mapped through {@code toAttempt}; a failure of either completes the result
     * with that failure as it is.
     */
    public static <S, A> CancelThrough<S, A> map(
            CompletableFuture<S> source, Function<? super S, ? extends A> toAttempt) {
        CancelThrough<S, A> mapped = new CancelThrough<>(source, toAttempt);
        // The mapped future is the source's action itself: a lambda would be one more object per attempt.
        source.whenComplete(mapped);
        return mapped;
    }

    /** The source completed: this completes with its mapping, or its failure. */
    @Override
    public void accept(S response, Throwable failure) {
        if (failure != null) {
            completeExceptionally(failure);
            return;
        }
        try {
            complete(toAttempt.apply(response));
        } catch (RuntimeException | Error e) {
            completeExceptionally(e);
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        source.cancel(mayInterruptIfRunning);
        return super.cancel(mayInterruptIfRunning);
    }
}
