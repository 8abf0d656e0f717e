package io.apiwarden.core.engine;

import io.apiwarden.core.log.AgentLog;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A future of the asynchronous face (an attempt's, {@link Exchange.Async#sendAsync}; a call's, {@link AsyncRun}) that
 * hands its outcome straight to one next step ({@link #handOver}), as {@code whenComplete} would, without the
 * dependent future and completion object {@code whenComplete} makes each time (64 bytes, a sixteenth of a managed
 * call's budget); {@link #handOver} falls back to {@code whenComplete} for any other future, or a second step.
 *
 * <p>The next step gets exactly what the future was completed with (a failure as it was given, not wrapped), once, on
 * the thread that completed it, or on the thread that hands it over when it was complete already. Every way of
 * completing the future goes through {@link #complete}, {@link #completeExceptionally} or {@link #cancel}; forcing a
 * value in is refused, as the JDK client's own futures refuse it.
 *
 * @param <T> the value type
 */
public abstract class HandOverFuture<T> extends CompletableFuture<T> {
    // Guarded by this: the next step may be handed over as the client completes the future on its own thread.
    private BiConsumer<? super T, ? super Throwable> next;
    private boolean hasOutcome;
    private T value;
    private Throwable failure;

    /**
     * Hands {@code future}'s outcome to {@code next} once it is there (now, when it is already): what
     * {@code future.whenComplete(next)} does, without its dependent future when {@code future} is a
     * {@code HandOverFuture} with no step yet.
     */
    public static <T> void handOver(
            CompletableFuture<? extends T> future, BiConsumer<? super T, ? super Throwable> next) {
        if (future instanceof HandOverFuture) {
            @SuppressWarnings("unchecked") // next takes a T, so it takes whatever the future is completed with
            HandOverFuture<T> direct = (HandOverFuture<T>) future;
            if (direct.handTo(next)) {
                return;
            }
        }
        future.whenComplete(next);
    }

    /** False when another step has it already. */
    private boolean handTo(BiConsumer<? super T, ? super Throwable> step) {
        boolean now;
        synchronized (this) {
            if (next != null) {
                return false;
            }
            next = step;
            now = hasOutcome;
        }
        if (now) {
            run(step, value, failure);
        }
        return true;
    }

    /** Called once the future is complete, after its next step had the outcome when there is one already. */
    protected void settled(T value, Throwable failure) {}

    @Override
    public boolean complete(T value) {
        if (!super.complete(value)) {
            return false;
        }
        handOver(value, null);
        return true;
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        if (!super.completeExceptionally(ex)) {
            return false;
        }
        handOver(null, ex);
        return true;
    }

    /**
     * Cancels as CompletableFuture's own does (which stores a {@link CancellationException} as the failure), but tells
     * the one cancel that did it from the others: they too return true.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        CancellationException cancelled = new CancellationException();
        if (super.completeExceptionally(cancelled)) {
            handOver(null, cancelled);
            return true;
        }
        return isCancelled();
    }

    /** CompletableFuture's own would complete the future without going through {@link #complete}. */
    @Override
    public CompletableFuture<T> completeAsync(Supplier<? extends T> supplier, Executor executor) {
        if (supplier == null || executor == null) {
            throw new NullPointerException();
        }
        executor.execute(() -> {
            try {
                // As CompletableFuture's own: the supplier is not run for a future already done.
                if (!isDone()) {
                    complete(supplier.get());
                }
            } catch (Throwable t) {
                completeExceptionally(t instanceof CompletionException ? t : new CompletionException(t));
            }
        });
        return this;
    }

    /** Refused, as the JDK client's own futures refuse it: a value forced in would never reach the next step. */
    @Override
    public void obtrudeValue(T value) {
        throw new UnsupportedOperationException();
    }

    /** Refused, as {@link #obtrudeValue}. */
    @Override
    public void obtrudeException(Throwable ex) {
        throw new UnsupportedOperationException();
    }

    private void handOver(T outcome, Throwable ex) {
        BiConsumer<? super T, ? super Throwable> step;
        synchronized (this) {
            value = outcome;
            failure = ex;
            hasOutcome = true;
            step = next;
        }
        try {
            if (step != null) {
                run(step, outcome, ex);
            }
        } finally {
            // Whatever the step did, the call ends: its span, its meters, its place at the gate.
            settled(outcome, ex);
        }
    }

    /**
     * Runs the next step; what it throws goes no further, as from an action registered with whenComplete, which
     * catches every throwable: the step may be the app's own code (Reactor Netty's subscriber).
     */
    private static <T> void run(BiConsumer<? super T, ? super Throwable> step, T outcome, Throwable ex) {
        try {
            step.accept(outcome, ex);
        } catch (Throwable e) {
            AgentLog.once(AgentLog.Level.WARN, "hand-over", "a step after an asynchronous call could not run", e);
        }
    }
}
