package io.apiwarden.core.engine;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.throttle.ThrottleGate;
import io.apiwarden.core.token.AccessToken;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The blocking face of a {@link CallDriver}: one call's attempts on the caller's thread, which
 * waits there (for a token, at the rate-limit gate, backing off) as its client lets it.
 *
 * @param <R> the response type the app gets from its client
 */
final class BlockingRun<R> {
    private final CallDriver<R> driver;
    private final Exchange.Blocking<R> exchange;

    BlockingRun(CallDriver<R> driver, Exchange.Blocking<R> exchange) {
        this.driver = driver;
        this.exchange = exchange;
    }

    /** Runs the call on this thread to the response the app gets, and ends its telemetry. */
    R run() throws IOException, InterruptedException {
        R response;
        try {
            response = attempts();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            driver.end(exchange, null, e);
            throw e;
        }
        driver.end(exchange, response, null);
        return response;
    }

    /** Runs the call's attempts on this thread, to the response the app gets. */
    private R attempts() throws IOException, InterruptedException {
        driver.token = awaitToken();
        while (true) {
            if (driver.gate != null && !driver.gatePassed) {
                CompletableFuture<ThrottleGate.Pass> entry = driver.enterGate();
                driver.took(entry.isDone() ? entry.getNow(null) : awaitGate(entry));
            }
            if (driver.state.deadline().hasPassed()) {
                // The limit ran out before anything could be sent (a token wait), or as a wait ended.
                Exception late = exchange.timedOut();
                if (late != null) {
                    throw late instanceof IOException ? (IOException) late : new IOException(late);
                }
            }
            AttemptObserver attempt = driver.observer.attempt(exchange.expectContinue());
            AttemptHeaders prepared = driver.prepare(exchange, attempt);
            Attempt.Blocking<R> sent;
            driver.gatePassed = false;
            try (Scope wire = attempt.onTheWire()) {
                sent = exchange.send(prepared, driver.attemptTimeout(), driver);
            } catch (IOException | InterruptedException | RuntimeException e) {
                attempt.failed(e);
                driver.noAnswer();
                throw e;
            }
            try {
                // The gate first: once anything outside (a span, the throttled gauge) says the limit holds, it does.
                driver.tellGate(sent);
                CallDriver.observe(attempt, sent);
                if (sent.followedRedirect()) {
                    continue;
                }
                Decision decision = sent.decision();
                if (decision.action() == Decision.Action.RETURN) {
                    return sent.deliver();
                }
                if (decision.resendsWithNonce()) {
                    // At once: the next attempt's proof carries the nonce the API just gave.
                    sent.discard();
                    continue;
                }
                if (decision.action() == Decision.Action.WAIT_AND_RESEND) {
                    driver.nextIsRateLimitRetry = true;
                    sent.discard();
                    exchange.sleep(decision.delay());
                    continue;
                }
                CompletableFuture<AccessToken> refresh;
                try (Scope inCall = driver.observer.current()) {
                    refresh = driver.warden.tokens().tokenAfterRejection(driver.token);
                }
                AccessToken fresh = exchange.await(refresh, driver.state.deadline(), "the token refresh");
                if (fresh != null) {
                    sent.discard();
                    driver.token = fresh;
                } else if (sent.canHandBack()) {
                    return sent.deliver();
                } else {
                    // Too long to have been held: the app gets the API's answer to one more attempt.
                    sent.discard();
                }
            } catch (IOException | InterruptedException | RuntimeException | Error e) {
                // Whatever fails after the response arrived, its connection goes back to the pool.
                sent.discard();
                throw e;
            }
        }
    }

    private AccessToken awaitToken() throws IOException, InterruptedException {
        CompletableFuture<AccessToken> first;
        try (Scope inCall = driver.observer.current()) {
            first = driver.warden.tokens().tokenForRequest();
        }
        AccessToken t = exchange.await(first, driver.state.deadline(), "a token");
        // No token in time (or none to be had): the call goes with what there is; past the app's own
        // limit it fails as it would without the agent.
        return t != null ? t : driver.warden.tokens().current();
    }

    /** Waits at the gate on this thread, no longer than the app's limit allows; null when the wait ended first. */
    private ThrottleGate.Pass awaitGate(CompletableFuture<ThrottleGate.Pass> entry)
            throws IOException, InterruptedException {
        ThrottleGate.Pass p = null;
        try {
            p = exchange.await(entry, driver.state.deadline(), "the rate-limit gate");
        } finally {
            if (p == null) {
                driver.leaveGate(entry);
            }
        }
        return p;
    }
}
