package io.apiwarden.core.engine;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.throttle.ThrottleGate;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.AccessToken;
import java.lang.ref.WeakReference;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The asynchronous face of a {@link CallDriver}: one call's attempts chained on futures, its waits
 * scheduled on the exchange's timer, holding no thread in between. A call's attempts run one after
 * the other, never at once; the futures that chain them publish the fields from one to the next.
 *
 * <p>The run is the call's future itself, and each attempt's next step ({@link #accept}): a future to hand out and
 * actions registered on futures would be 180 to 240 bytes more per call (docs/benchmarks.md, the asynchronous faces'
 * bytes). The call ends (its telemetry, its place at the gate) in {@link #settled}, which every way of completing
 * it reaches ({@link HandOverFuture}).
 *
 * @param <R> the response type the app gets from its client
 */
final class AsyncRun<R> extends HandOverFuture<R> implements BiConsumer<Attempt.Async<R>, Throwable> {
    private final CallDriver<R> driver;
    private final Exchange.Async<R> exchange;

    private volatile CompletableFuture<?> inFlight;
    private volatile DelayScheduler.Scheduled timer;
    private volatile AttemptObserver currentAttempt;
    /** The thread that sent the attempt in flight, read when its outcome is handed over ({@link #accept}). */
    private Thread sendingThread;
    /** Whether the response being handled arrived on another thread than the one that sent it (see {@link #handToApp}). */
    private boolean clientThread;
    /** This run, weakly, for the futures the app makes from it ({@link #newIncompleteFuture}); made at the first. */
    private volatile WeakReference<CompletableFuture<?>> self;

    AsyncRun(CallDriver<R> driver, Exchange.Async<R> exchange) {
        this.driver = driver;
        this.exchange = exchange;
    }

    /**
     * The futures the app makes from this one: on the faces whose client does so (the JDK's, from JDK 16 on),
     * cancelling one with {@code cancel(true)} cancels the call ({@link DerivedFuture}).
     */
    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        if (!exchange.madeFuturesCancelTheCall()) {
            return new CompletableFuture<>();
        }
        WeakReference<CompletableFuture<?>> ref = self;
        if (ref == null) {
            // One per call, however many futures the app makes from it; a race makes two, either works.
            ref = new WeakReference<>(this);
            self = ref;
        }
        return new DerivedFuture<>(ref);
    }

    /** Starts the call; see {@link CallDriver#runAsync}. */
    CompletableFuture<R> start() {
        CompletableFuture<AccessToken> first;
        try (Scope inCall = driver.observer.current()) {
            first = driver.state.deadline().bound(driver.warden.tokens().tokenForRequest(), exchange.timer());
        }
        if (first.isDone()) {
            // Same thread, as the client does: a request it rejects outright throws from its own call.
            driver.token =
                    first.isCompletedExceptionally() ? driver.warden.tokens().current() : first.getNow(null);
            attemptAsync(true);
        } else {
            // Off the thread the token arrived on (the token store's, the timer): neither is the place to
            // send the app's request or run its code.
            first.whenCompleteAsync(
                    (t, e) -> {
                        // Past the app's own limit, the call goes out with the token there is, and fails at once.
                        driver.token = e == null ? t : driver.warden.tokens().current();
                        attemptAsync(false);
                    },
                    exchange.completions());
        }
        return this;
    }

    /**
     * The call's future completed, once: the call ends after the actions the app registered on it and the next step
     * handed its outcome, as an action registered first with whenComplete would.
     */
    @Override
    protected void settled(R response, Throwable failure) {
        if (isCancelled()) {
            cancelPending();
        }
        // The app may keep its future long after the call: it keeps no attempt, response or timer of it.
        inFlight = null;
        timer = null;
        driver.end(exchange, response, failure);
    }

    private void attemptAsync(boolean mayThrow) {
        if (isDone()) {
            // Cancelled while the gate let it go, its continuation not yet run: the pass goes back.
            driver.noAnswer();
            return;
        }
        if (driver.gate != null && !driver.gatePassed) {
            CompletableFuture<ThrottleGate.Pass> entry = driver.enterGate();
            if (!entry.isDone()) {
                // Waits at the gate holding no thread; cancelling the app's future gives up the place.
                inFlight = entry;
                if (isCancelled()) {
                    entry.cancel(false);
                }
                driver.state
                        .deadline()
                        .bound(entry, exchange.timer())
                        .whenCompleteAsync(
                                (p, e) -> {
                                    if (e != null) {
                                        // The app's limit ran out, or the call was cancelled: the place goes to the
                                        // next.
                                        driver.leaveGate(entry);
                                    }
                                    driver.took(e == null ? p : null);
                                    attemptAsync(false);
                                },
                                exchange.completions());
                return;
            }
            driver.took(entry.getNow(null));
        }
        if (driver.state.deadline().hasPassed()) {
            Exception late = exchange.timedOut();
            if (late != null) {
                fail(late);
                return;
            }
        }
        CompletableFuture<? extends Attempt.Async<R>> sent;
        AttemptObserver attempt = driver.observer.attempt(exchange.expectContinue());
        currentAttempt = attempt;
        driver.gatePassed = false;
        sendingThread = Thread.currentThread();
        try (Scope wire = attempt.onTheWire()) {
            sent = exchange.sendAsync(driver.prepare(exchange, attempt), driver.attemptTimeout(), driver);
        } catch (RuntimeException e) {
            attempt.failed(e);
            driver.noAnswer();
            if (mayThrow) {
                // The app never sees this future; completing it ends the call's span.
                completeExceptionally(e);
                throw e;
            }
            fail(e);
            return;
        }
        inFlight = sent;
        if (isCancelled()) {
            // The app cancelled between the check above and now.
            sent.cancel(true);
        }
        HandOverFuture.handOver(sent, this);
    }

    /** The attempt in flight is over: this run is its next step itself, where a lambda would be one more object. */
    @Override
    public void accept(Attempt.Async<R> sent, Throwable failure) {
        // On another thread than the one that sent, this runs where the client completed the attempt,
        // where the app's own continuations belong. On the same thread it ran at once (the attempt
        // was over already), maybe on the agent's timer: then the app's future is completed from
        // the exchange's executor instead.
        clientThread = Thread.currentThread() != sendingThread;
        // Not kept past its use: the app may hold its future long after the call.
        sendingThread = null;
        onResponse(sent, failure);
    }

    private void onResponse(Attempt.Async<R> sent, Throwable failure) {
        if (isDone()) {
            // The app's future was completed meanwhile (its own time-out, complete, cancel): the attempt is told to
            // its span and its answer let go, never resent nor handed over.
            if (failure != null) {
                currentAttempt.failed(failure);
            } else {
                CallDriver.observe(currentAttempt, sent);
                sent.discard();
            }
            return;
        }
        if (failure != null) {
            currentAttempt.failed(failure);
            driver.noAnswer();
            fail(failure);
            return;
        }
        try {
            driver.tellGate(sent);
            CallDriver.observe(currentAttempt, sent);
            next(sent);
        } catch (RuntimeException e) {
            // Never resend here: the request may have been processed, and its body may be spent.
            AgentLog.once(AgentLog.Level.WARN, "async-step", "an asynchronous call could not be continued", e);
            sent.discard();
            fail(Failures.asSendException(e));
        }
    }

    private void next(Attempt.Async<R> sent) {
        if (sent.followedRedirect()) {
            attemptAsync(false);
            return;
        }
        Decision decision = sent.decision();
        if (decision.action() == Decision.Action.RETURN) {
            R now = sent.deliveredNow();
            if (now != null) {
                handToApp(now);
            } else {
                deliver(sent.deliverAsync());
            }
            return;
        }
        if (decision.resendsWithNonce()) {
            // At once, off the client's thread as after a refresh: the next proof carries the API's nonce.
            sent.discard();
            exchange.completions().execute(() -> attemptAsync(false));
            return;
        }
        if (decision.action() == Decision.Action.WAIT_AND_RESEND) {
            sent.discard();
            driver.nextIsRateLimitRetry = true;
            timer = exchange.timer().schedule(decision.delay(), () -> attemptAsync(false));
            if (isCancelled()) {
                timer.cancel();
            }
            return;
        }
        CompletableFuture<AccessToken> refreshed;
        try (Scope inCall = driver.observer.current()) {
            refreshed = driver.state
                    .deadline()
                    .bound(driver.warden.tokens().tokenAfterRejection(driver.token), exchange.timer());
        }
        // Off the token's thread, for the reason above: a failed refresh hands the app's code the held body here.
        refreshed.whenCompleteAsync(
                (fresh, refreshFailed) -> {
                    try {
                        if (refreshFailed == null) {
                            sent.discard();
                            driver.token = fresh;
                            attemptAsync(false);
                        } else if (!sent.canHandBack()) {
                            sent.discard();
                            attemptAsync(false);
                        } else {
                            pipe(sent.deliverAsync());
                        }
                    } catch (RuntimeException e) {
                        fail(Failures.asSendException(e));
                    }
                },
                exchange.completions());
    }

    /** Hands the app a response that is there at once directly; one still on its way through {@link #pipe}. */
    private void deliver(CompletionStage<R> stage) {
        CompletableFuture<R> f = stage.toCompletableFuture();
        if (f.isDone() && !f.isCompletedExceptionally()) {
            handToApp(f.getNow(null));
        } else {
            pipe(stage);
        }
    }

    /**
     * Completes the app's future from the exchange's executor, as the client itself does: the
     * app's continuations must never run on the agent's timer or the token client's threads.
     */
    private void pipe(CompletionStage<R> stage) {
        inFlight = stage.toCompletableFuture();
        stage.whenCompleteAsync(
                (r, e) -> {
                    if (e != null) {
                        completeExceptionally(e);
                    } else {
                        complete(r);
                    }
                },
                exchange.completions());
    }

    /**
     * Hands the app its response. On the client's thread already, at once: another hop would start
     * one more thread per call where the JDK's pool is a thread per task (its choice on machines of
     * one or two cores), which more than doubled the time of a {@code sendAsync} call in the benchmarks.
     */
    private void handToApp(R response) {
        if (clientThread) {
            complete(response);
        } else {
            pipe(CompletableFuture.completedFuture(response));
        }
    }

    private void fail(Throwable failure) {
        exchange.completions().execute(() -> completeExceptionally(failure));
    }

    private void cancelPending() {
        DelayScheduler.Scheduled t = timer;
        if (t != null) {
            t.cancel();
        }
        CompletableFuture<?> f = inFlight;
        if (f != null) {
            f.cancel(true);
        }
    }
}
