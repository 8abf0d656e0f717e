package io.apiwarden.core.call;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.backoff.RetryAfter;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.throttle.RetryBudget;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Decides, for each managed response, whether the app gets it or the agent resends.
 *
 * <p>A logical call earns at most one token refresh (the spec folds "insufficient permissions"
 * into the invalid-token error, so a second refresh could only loop) and at most
 * {@code maxRetries} waits for a global rate limit, which with its waits at the rate-limit gate
 * take no longer than {@link #wholeBackOff()} together. Nothing is resent whose body cannot be
 * sent twice (by the client, or from a whole recording of it: see {@link BodyReplay}), and no
 * wait is begun that would outlive the app's own time limit for the call ({@link CallState#deadline()}): the app gets the response it would have had without the agent.
 */
public final class ResendPolicy {
    private final BackoffPolicy backoff;
    private final Clock clock;
    private final RefusalMemory refusals = new RefusalMemory();
    /** Bounds the rate-limit resends of the whole JVM; null: only each call's own. */
    private final RetryBudget budget;
    /** The longest one call spends waiting, at the gate and backing off: the spec's bound (62 s by default). */
    private final Duration wholeBackOff;

    private final ApiLog log;

    public ResendPolicy(BackoffPolicy backoff, Clock clock) {
        this(backoff, clock, null);
    }

    public ResendPolicy(BackoffPolicy backoff, Clock clock, RetryBudget budget) {
        this(backoff, clock, budget, ApiLog.UNNAMED);
    }

    /** As above, its decisions logged to {@code log} (which names the API when there are several). */
    public ResendPolicy(BackoffPolicy backoff, Clock clock, RetryBudget budget, ApiLog log) {
        this.log = log;
        this.backoff = backoff;
        this.clock = clock;
        this.budget = budget;
        Duration sum = Duration.ZERO;
        for (int retry = 1; retry <= backoff.maxRetries(); retry++) {
            sum = sum.plus(backoff.delayBefore(retry, Optional.empty()));
        }
        this.wholeBackOff = sum;
    }

    /** A new managed call starts: it counts towards the resends the budget allows. */
    public void called() {
        if (budget != null) {
            budget.called();
        }
    }

    /**
     * How long the refusal {@code d} of a global rate limit closes the JVM's gate. When the server said when
     * the limit lets go ({@code Retry-After}), for that (at least the back-off's first wait, capped), however
     * long the refused call itself backs off: a call refused on its 4th attempt waits 2^4 s by the spec's rule,
     * but holding every other call that long spent their whole back-off at the gate while the API was already
     * answering (measured: up to 4.6% of a soak's calls ended in the 429). Without one, the refused call's own
     * wait is the only estimate there is, and a longer one after each refusal of the call sent first keeps the
     * probes of a limit that holds few; a refusal not resent holds for the first wait.
     */
    public Duration gateWindow(Decision d, String retryAfter) {
        Optional<Duration> asked = RetryAfter.parse(retryAfter, clock.instant());
        if (!asked.isPresent() && d != null && d.action() == Decision.Action.WAIT_AND_RESEND) {
            return d.delay();
        }
        return backoff.maxRetries() == 0 ? asked.orElse(Duration.ZERO) : backoff.delayBefore(1, asked);
    }

    /**
     * The longest one call spends waiting, at the gate and backing off together: the sum of the
     * back-off's waits (2 + 4 + 8 + 16 + 32 = 62 s by default), the bound the spec's rule sets.
     * Without it a call's gate waits stacked on its back-off (measured: up to 435 s).
     */
    public Duration wholeBackOff() {
        return wholeBackOff;
    }

    /**
     * How long {@code state}'s call may wait at the rate-limit gate now: what is left of its whole
     * back-off, and of the app's own time limit when that is shorter.
     */
    public Duration mayWait(CallState state) {
        Duration left = wholeBackOff.minus(state.waited());
        if (state.deadline().isSet() && state.deadline().remaining().compareTo(left) < 0) {
            left = state.deadline().remaining();
        }
        return left.isNegative() ? Duration.ZERO : left;
    }

    /**
     * Decides and counts the step in {@code state}, weighing what the client saw of the attempt on the wire.
     *
     * @param retryAfter the response's {@code Retry-After} header, or null
     * @param body whether the request body can be sent again, as it stands now that the response came
     * @param agentSetToken whether the request carried the agent's token (refreshing cannot help otherwise)
     * @param canRefresh whether a refresh is possible at all
     * @param wire what went out, as the adapter saw it
     */
    public Decision decide(
            CallState state,
            Verdict verdict,
            String retryAfter,
            BodyReplay body,
            boolean agentSetToken,
            boolean canRefresh,
            OnTheWire wire) {
        Decision d;
        if (wire == OnTheWire.LEFT_THE_API) {
            // A redirect the client followed out of the API: never the agent's to resend, and nothing is
            // counted. One of the spec's two errors from there still says why it went to the app.
            d = isResendable(verdict) ? Decision.LEFT_THE_API : Decision.FROM_OUTSIDE_THE_API;
        } else {
            boolean agentsTokenSent = agentSetToken && wire != OnTheWire.APP_AUTHORIZATION;
            d = choose(state, verdict, retryAfter, body, agentsTokenSent, canRefresh);
        }
        if (d.action() == Decision.Action.RETURN && d.reason() != null && log.enabled(AgentLog.Level.DEBUG)) {
            log.debug("not resent (" + d.reason() + "): " + verdict.name().toLowerCase(java.util.Locale.ROOT) + " on "
                    + state.requestKey());
        }
        return d;
    }

    private Decision choose(
            CallState state,
            Verdict verdict,
            String retryAfter,
            BodyReplay body,
            boolean agentSetToken,
            boolean canRefresh) {
        if (!isResendable(verdict)) {
            return Decision.RETURN;
        }
        switch (body) {
            case NOT_REPEATABLE:
                return Decision.BODY_NOT_REPEATABLE;
            case TOO_LARGE_TO_REPLAY:
                return Decision.BODY_TOO_LARGE_TO_REPLAY;
            case NOT_FINISHED:
                return Decision.BODY_NOT_FINISHED;
            default:
                break;
        }
        if (verdict == Verdict.INVALID_TOKEN) {
            return afterInvalidToken(state, agentSetToken, canRefresh);
        }
        if (verdict == Verdict.DPOP_NONCE) {
            return afterNonceDemand(state, agentSetToken);
        }
        int retry = state.rateLimitRetries() + 1;
        if (retry > backoff.maxRetries()) {
            return Decision.RETRIES_SPENT;
        }
        Optional<Duration> asked = RetryAfter.parse(retryAfter, clock.instant());
        Duration delay = backoff.delayBefore(retry, asked);
        Duration exponential = backoff.delayBefore(retry, Optional.empty());
        if (!state.deadline().allows(delay)) {
            // Without the agent the app would have had this response at once.
            return Decision.RETURN_AT_DEADLINE;
        }
        if (state.waited().plus(delay).compareTo(wholeBackOff) > 0) {
            // Resending sooner than asked would break the spec's rule (or the server's Retry-After):
            // the app gets the refusal now instead of a wait past the bound.
            return Decision.WAITS_SPENT;
        }
        if (budget != null && !budget.tryResend()) {
            return Decision.RETRY_BUDGET_SPENT;
        }
        state.countRateLimitRetry(delay);
        return Decision.waitAndResend(delay, retry, delay.compareTo(exponential) > 0 ? "retry-after" : "backoff");
    }

    /** The spec's two errors, and DPoP's demand for a nonce: the only answers the agent ever resends. */
    private static boolean isResendable(Verdict verdict) {
        return verdict == Verdict.INVALID_TOKEN
                || verdict == Verdict.GLOBAL_RATE_LIMIT
                || verdict == Verdict.DPOP_NONCE;
    }

    /**
     * The API asked for a DPoP nonce and gave it: the call is resent at once with it, once. Counted apart from the
     * refresh and the rate-limit retries, so a call may still be refreshed once after it; a second demand goes
     * to the app (a server that never takes its own nonce would otherwise loop).
     */
    private static Decision afterNonceDemand(CallState state, boolean agentSetToken) {
        if (!agentSetToken) {
            // The app's own Authorization went out, with no proof of the agent's: not the agent's to answer.
            return Decision.APP_AUTHORIZATION;
        }
        if (state.nonceResends() > 0) {
            return Decision.NONCE_RESENT_ALREADY;
        }
        if (state.deadline().hasPassed()) {
            return Decision.RETURN_AT_DEADLINE;
        }
        state.countNonceResend();
        return Decision.NONCE_RESEND;
    }

    /**
     * A token the API accepted before and refuses now was revoked or has expired, whatever its
     * age: refresh. The one refusal a new token cannot fix is a refusal of its rights, and the
     * evidence for that is a request refused again right after a refresh: remembered, so the
     * same request with the same token costs no refresh the next time.
     */
    private Decision afterInvalidToken(CallState state, boolean agentSetToken, boolean canRefresh) {
        if (!agentSetToken) {
            return Decision.APP_AUTHORIZATION;
        }
        if (state.refreshes() > 0) {
            if (state.tokenGeneration() != state.refusedGeneration()) {
                // Refused again with a new token: evidence about rights. Resent with the same token
                // (the refresh failed), the second refusal says nothing new.
                refusals.remember(state.requestKey(), state.tokenGeneration());
            }
            return Decision.REFRESHED_ALREADY;
        }
        if (!canRefresh) {
            return Decision.NO_REFRESH;
        }
        if (refusals.refusedForRights(state.requestKey(), state.tokenGeneration())) {
            return Decision.REFUSED_FOR_RIGHTS;
        }
        if (state.deadline().hasPassed()) {
            return Decision.RETURN_AT_DEADLINE;
        }
        state.countRefresh(state.tokenGeneration());
        return Decision.REFRESH;
    }
}
