package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Response;

/**
 * Rate-limit waits that hold no OkHttp thread.
 *
 * <p>For {@code enqueue}, the app's callback is wrapped. When the interceptor decides to wait, it
 * lets the rate-limited response go back to the wrapped callback, which closes it and schedules
 * a {@link Call#clone() copy} of the call on the agent's timer; the copy is enqueued in its turn.
 * The app's callback is called once, with the app's own {@link Call}. {@code Call.cancel()}
 * stops a pending retry at once and cancels a copy in flight.
 *
 * <p>For {@code execute}, the wait blocks the caller's thread, as the app asked for, but a
 * {@code cancel()} from another thread ends it at once.
 */
final class AsyncRetries {
    private final Warden warden;
    private final DelayScheduler scheduler;
    /** Every managed enqueued call in flight, the app's and the copies, to the call's state. */
    private final Map<Call, State> calls = new ConcurrentHashMap<>();
    /** Calls waiting on the caller's thread (a rate limit, a token), so that cancel() can wake them. */
    private final Map<Call, CompletableFuture<Void>> sleepers = new ConcurrentHashMap<>();

    AsyncRetries(Warden warden) {
        this.warden = warden;
        this.scheduler = warden.scheduler();
    }

    /** The state of an enqueued managed call, or null for a call made with execute(). */
    State stateOf(Call call) {
        return calls.get(call);
    }

    Callback wrap(Call call, Callback app) {
        State state = new State(call, app);
        State earlier = calls.putIfAbsent(call, state);
        return new RetryingCallback(earlier == null ? state : earlier);
    }

    void cancelled(Call call) {
        CompletableFuture<Void> sleeper = sleepers.get(call);
        if (sleeper != null) {
            sleeper.complete(null);
        }
        State state = calls.get(call);
        if (state != null && state.original == call) {
            state.cancel();
        }
    }

    /** Blocks a synchronous call for {@code delay}; a cancel ends the wait with the error OkHttp gives a cancelled call. */
    void waitFor(Call call, Duration delay) throws IOException {
        BlockingWait.sleep(scheduler, delay, new Sleeper(call, true));
    }

    /**
     * Waits on the calling thread for {@code future} (a token), until it is done, the call is
     * cancelled (OkHttp's own {@code callTimeout} cancels it too) or {@code deadline} passes.
     *
     * @return its value, or null when it failed or the wait ended first
     */
    <T> T await(Call call, CompletableFuture<T> future, Deadline deadline, String what) throws IOException {
        return BlockingWait.await(future, deadline, new Sleeper(call, false), what);
    }

    /** A synchronous call waiting on the caller's thread, in {@link #sleepers} so that cancel() wakes it. */
    private final class Sleeper implements BlockingWait.Cancel {
        private final Call call;
        /** Whether the wait fails as OkHttp fails a cancelled call; else it ends without a value. */
        private final boolean failsWhenCancelled;

        private final CompletableFuture<Void> wake = new CompletableFuture<>();

        Sleeper(Call call, boolean failsWhenCancelled) {
            this.call = call;
            this.failsWhenCancelled = failsWhenCancelled;
        }

        @Override
        public CompletableFuture<?> listen() {
            sleepers.put(call, wake);
            if (call.isCanceled()) {
                wake.complete(null);
            }
            return wake;
        }

        @Override
        public void stopListening() {
            sleepers.remove(call);
        }

        @Override
        public void throwIfCancelled() throws IOException {
            if (failsWhenCancelled && call.isCanceled()) {
                throw new IOException("Canceled");
            }
        }
    }

    /** One enqueued logical call, across its copies. */
    final class State {
        final Call original;
        final Callback app;
        /** One logical call across its copies: one span, one request ID, one budget of resends. */
        final CallDriver<Response> driver;

        private final AtomicBoolean finished = new AtomicBoolean();
        private final AtomicBoolean cancelled = new AtomicBoolean();
        private volatile Call current;
        private volatile Duration pendingDelay;
        /** The rate-limited response that {@link #pendingDelay} is for: only that one is resent. */
        private volatile Response pendingResponse;

        private volatile DelayScheduler.Scheduled timer;
        /** The wait at the rate-limit gate before the next copy goes, when there is one. */
        private volatile CompletableFuture<?> gateWait;

        State(Call original, Callback app) {
            this.original = original;
            this.app = app;
            this.current = original;
            this.driver = OkHttpExchange.driverFor(original.request(), original, warden);
        }

        /**
         * Called by the interceptor: {@code response}, which it returns, is to be resent after
         * {@code delay}; null and null clear what an earlier run of the interceptor set.
         */
        void resendAfter(Duration delay, Response response) {
            pendingResponse = response;
            pendingDelay = delay;
        }

        private void cancel() {
            if (!cancelled.compareAndSet(false, true)) {
                return;
            }
            DelayScheduler.Scheduled t = timer;
            if (t != null) {
                t.cancel();
            }
            CompletableFuture<?> g = gateWait;
            if (g != null) {
                // Gives up its place at the gate; the timer's task, which is waiting on it, fails the call below.
                g.cancel(false);
            }
            Call c = current;
            if (c != original) {
                c.cancel();
            }
            if (t != null && c == original) {
                // Waiting, with no copy in flight: nothing else will call back. Not on the
                // thread that called cancel(): OkHttp never calls back there either.
                java.util.concurrent.ForkJoinPool.commonPool().execute(() -> fail(new IOException("Canceled")));
            }
        }

        private void resend() {
            if (cancelled.get()) {
                fail(new IOException("Canceled"));
                return;
            }
            // Past its own back-off, the copy waits at the gate if the API's limit still holds, holding no
            // dispatcher thread; it then goes through without waiting again.
            CompletableFuture<?> admitted = driver.gateForResend();
            if (!admitted.isDone()) {
                gateWait = admitted;
                admitted.whenComplete((v, e) -> {
                    gateWait = null;
                    if (cancelled.get()) {
                        fail(new IOException("Canceled"));
                    } else {
                        enqueueCopy();
                    }
                });
                if (cancelled.get()) {
                    admitted.cancel(false);
                }
                return;
            }
            enqueueCopy();
        }

        private void enqueueCopy() {
            Call copy = original.clone();
            Deadline deadline = driver.deadline();
            if (deadline.isSet()) {
                // A copy starts a call timeout of its own: what is left of the app's, not the whole again.
                copy.timeout().timeout(Math.max(1, deadline.remaining().toNanos()), TimeUnit.NANOSECONDS);
            }
            calls.put(copy, this);
            current = copy;
            if (finished.get()) {
                // cancel() finished the call between the check above and now.
                calls.remove(copy);
                return;
            }
            copy.enqueue(new RetryingCallback(this));
            if (cancelled.get()) {
                copy.cancel();
            }
        }

        private void deliver(Response response) throws IOException {
            if (finished.compareAndSet(false, true)) {
                forget();
                driver.end(response.code(), response::headers, null);
                app.onResponse(original, response);
            } else {
                response.close();
            }
        }

        private void fail(IOException e) {
            if (finished.compareAndSet(false, true)) {
                forget();
                driver.end(0, null, e);
                app.onFailure(original, e);
            }
        }

        private void forget() {
            calls.remove(original);
            Call c = current;
            if (c != null) {
                calls.remove(c);
            }
        }
    }

    /** The callback OkHttp sees for a managed enqueued call and its copies. */
    final class RetryingCallback implements Callback {
        private final State state;

        RetryingCallback(State state) {
            this.state = state;
        }

        @Override
        public void onResponse(Call call, Response response) throws IOException {
            Duration delay = state.pendingResponse == response ? state.pendingDelay : null;
            state.resendAfter(null, null);
            if (delay == null || state.cancelled.get()) {
                state.deliver(response);
                return;
            }
            response.close();
            if (call != state.original) {
                calls.remove(call);
            }
            state.current = state.original;
            state.timer = scheduler.schedule(delay, state::resend);
            if (state.cancelled.get()) {
                // cancel() ran before the timer existed: it is this thread's to stop.
                state.timer.cancel();
                state.fail(new IOException("Canceled"));
            }
        }

        @Override
        public void onFailure(Call call, IOException e) {
            state.fail(e);
        }
    }
}
