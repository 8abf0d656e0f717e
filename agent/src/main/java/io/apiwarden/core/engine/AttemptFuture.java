package io.apiwarden.core.engine;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The future of one asynchronous attempt ({@link Exchange.Async#sendAsync}) that hands its outcome straight to the
 * call's next step ({@link #handTo}), as {@code whenComplete} would, without the dependent future and completion
 * object {@code whenComplete} makes on every attempt (64 bytes, a sixteenth of the per-call budget). An adapter's
 * attempt future extends it; {@link #handOver} falls back to {@code whenComplete} for any other.
 *
 * <p>The next step gets exactly what the future was completed with (a failure as it was given, not wrapped), once,
 * on the thread that completed it, or on the thread that hands it over when it was complete already.
 *
 * @param <A> the attempt type
 */
public abstract class AttemptFuture<A> extends CompletableFuture<A> {
    // Guarded by this: the next step may be handed over as the client completes the future on its own thread.
    private BiConsumer<? super A, ? super Throwable> next;
    private boolean settled;
    private A value;
    private Throwable failure;

    /** Hands {@code sent}'s outcome to {@code next} once it is there (now, when it is already). */
    static <A> void handOver(CompletableFuture<? extends A> sent, BiConsumer<? super A, ? super Throwable> next) {
        if (sent instanceof AttemptFuture) {
            @SuppressWarnings("unchecked") // next takes an A, so it takes whatever sent was completed with
            AttemptFuture<A> direct = (AttemptFuture<A>) sent;
            direct.handTo(next);
        } else {
            sent.whenComplete(next);
        }
    }

    private void handTo(BiConsumer<? super A, ? super Throwable> step) {
        boolean now;
        synchronized (this) {
            next = step;
            now = settled;
        }
        if (now) {
            step.accept(value, failure);
        }
    }

    @Override
    public boolean complete(A attempt) {
        if (!super.complete(attempt)) {
            return false;
        }
        settled(attempt, null);
        return true;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        if (!super.completeExceptionally(ex)) {
            return false;
        }
        settled(null, ex);
        return true;
    }

    /**
     * Cancels as CompletableFuture's own does (which stores a {@link CancellationException} as the failure), but tells
     * the one cancel that did it from the others: they too return true. The next step hears of it: it ends the
     * attempt's telemetry and gives back its place at the gate.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        CancellationException cancelled = new CancellationException();
        if (super.completeExceptionally(cancelled)) {
            settled(null, cancelled);
            return true;
        }
        return isCancelled();
    }

    private void settled(A attempt, Throwable ex) {
        BiConsumer<? super A, ? super Throwable> step;
        synchronized (this) {
            value = attempt;
            failure = ex;
            settled = true;
            step = next;
        }
        if (step != null) {
            step.accept(attempt, ex);
        }
    }
}
