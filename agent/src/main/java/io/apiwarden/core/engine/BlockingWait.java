package io.apiwarden.core.engine;

import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The waits of the blocking face ({@link Exchange.Blocking#await}, {@link Exchange.Blocking#sleep}) on
 * the caller's thread, with the call's deadline and the app's cancel. How the app cancels a blocking
 * call, and what a cancelled call throws, is the client's: it comes in as a {@link Cancel}. An
 * interrupt ends a wait with an {@link InterruptedIOException}, the thread's flag kept.
 */
public final class BlockingWait {
    private BlockingWait() {}

    /** How the app cancels a blocking call of its client, as one wait sees it. */
    public interface Cancel {
        /** Listens for the app's cancel: the answer completes when it comes, at once when it came before. */
        CompletableFuture<?> listen();

        /** The wait is over: stops listening. */
        void stopListening();

        /**
         * Throws what the client throws for a call the app has cancelled; returns when it has not,
         * or when the client lets a cancelled wait end as it was (without a value, for {@code await}).
         */
        void throwIfCancelled() throws IOException;
    }

    /** A request of a client that is handed the cancel of its current step (Apache HttpClient's {@code setCancellable}). */
    public interface CancellableRequest {
        /** Makes {@code cancelStep} what the app's cancel of the request runs, in place of the step before. */
        void hand(BooleanSupplier cancelStep);
    }

    /**
     * The app's cancel of a request whose client hands it each step in turn to cancel (Apache HttpClient: a
     * connection lease, a connection), for one wait: between attempts the step is the agent's wait, until the
     * next attempt hands the request its own; a late cancel then completes nothing awaited.
     *
     * @param request the request, or null for one the app cannot cancel: a signal that never comes
     * @param cancelledFailure what the client throws for a cancelled request
     */
    public static Cancel handedTo(CancellableRequest request, Supplier<? extends IOException> cancelledFailure) {
        return new HandedStep(request, cancelledFailure);
    }

    private static final class HandedStep implements Cancel {
        private final CompletableFuture<Void> cancelled = new CompletableFuture<>();
        private final CancellableRequest request;
        private final Supplier<? extends IOException> cancelledFailure;

        HandedStep(CancellableRequest request, Supplier<? extends IOException> cancelledFailure) {
            this.request = request;
            this.cancelledFailure = cancelledFailure;
        }

        @Override
        public CompletableFuture<?> listen() {
            if (request != null) {
                // On a request cancelled already, the client runs what it is handed at once.
                request.hand(() -> cancelled.complete(null));
            }
            return cancelled;
        }

        @Override
        public void stopListening() {
            // The next step hands the request its own.
        }

        @Override
        public void throwIfCancelled() throws IOException {
            if (cancelled.isDone()) {
                throw cancelledFailure.get();
            }
        }
    }

    /**
     * Waits for {@code future} until it is done, the app cancels or {@code deadline} passes.
     *
     * @param what what is awaited, for the error an interrupt gives
     * @return its value, or null when it failed or the wait ended first
     */
    public static <T> T await(CompletableFuture<T> future, Deadline deadline, Cancel cancel, String what)
            throws IOException {
        if (future.isDone()) {
            return valueOf(future);
        }
        CompletableFuture<?> cancelled = cancel.listen();
        try {
            if (!cancelled.isDone()) {
                CompletableFuture<Object> first = CompletableFuture.anyOf(future, cancelled);
                if (deadline.isSet()) {
                    first.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS);
                } else {
                    first.get();
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            throw interrupted("interrupted while waiting for " + what);
        } finally {
            cancel.stopListening();
        }
        cancel.throwIfCancelled();
        return valueOf(future);
    }

    /**
     * Waits for {@code future} until it is done or {@code deadline} passes, for a client whose
     * blocking call the app cancels by interrupting it: the interrupt goes to the engine as it is.
     *
     * @return its value, or null when it failed or the wait ended first
     */
    public static <T> T await(CompletableFuture<T> future, Deadline deadline) throws InterruptedException {
        try {
            return deadline.isSet() ? future.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS) : future.get();
        } catch (ExecutionException | TimeoutException e) {
            return null;
        }
    }

    /** Blocks for {@code delay} on {@code timer}, or until the app cancels. */
    public static void sleep(DelayScheduler timer, Duration delay, Cancel cancel) throws IOException {
        CompletableFuture<?> cancelled = cancel.listen();
        CompletableFuture<Void> slept = new CompletableFuture<>();
        DelayScheduler.Scheduled wakeUp = timer.schedule(delay, () -> slept.complete(null));
        try {
            if (!cancelled.isDone()) {
                CompletableFuture.anyOf(slept, cancelled).get();
            }
        } catch (InterruptedException e) {
            throw interrupted("interrupted while waiting out a rate limit");
        } catch (ExecutionException e) {
            throw new IllegalStateException("a wake-up cannot fail", e);
        } finally {
            wakeUp.cancel();
            cancel.stopListening();
        }
        cancel.throwIfCancelled();
    }

    private static <T> T valueOf(CompletableFuture<T> future) {
        return future.isDone() && !future.isCompletedExceptionally() ? future.getNow(null) : null;
    }

    private static InterruptedIOException interrupted(String message) {
        Thread.currentThread().interrupt();
        return new InterruptedIOException(message);
    }
}
