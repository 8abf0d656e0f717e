package io.apiwarden.core.call;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.backoff.RetryAfter;
import io.apiwarden.core.classify.Verdict;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Decides, for each managed response, whether the app gets it or the agent resends.
 *
 * <p>A logical call earns at most one token refresh (the spec folds "insufficient permissions"
 * into the invalid-token error, so a second refresh could only loop) and at most
 * {@code maxRetries} waits for a global rate limit. Nothing is resent whose body cannot be
 * sent twice, and no wait is begun that would outlive the app's own time limit for the call
 * ({@link CallState#deadline()}): the app gets the response it would have had without the agent.
 */
public final class ResendPolicy {
    private final BackoffPolicy backoff;
    private final Clock clock;

    public ResendPolicy(BackoffPolicy backoff, Clock clock) {
        this.backoff = backoff;
        this.clock = clock;
    }

    /**
     * Decides and counts the step in {@code state}.
     *
     * @param retryAfter the response's {@code Retry-After} header, or null
     * @param bodyRepeatable whether the request body can be sent again
     * @param agentSetToken whether the request carried the agent's token (refreshing cannot help otherwise)
     * @param canRefresh whether a refresh is possible at all
     */
    public Decision decide(CallState state, Verdict verdict, String retryAfter, boolean bodyRepeatable,
                           boolean agentSetToken, boolean canRefresh) {
        if (!bodyRepeatable) {
            return Decision.RETURN;
        }
        switch (verdict) {
            case INVALID_TOKEN:
                if (agentSetToken && canRefresh && state.refreshes() == 0) {
                    if (state.deadline().hasPassed()) {
                        return Decision.RETURN_AT_DEADLINE;
                    }
                    state.countRefresh();
                    return Decision.REFRESH;
                }
                return Decision.RETURN;
            case GLOBAL_RATE_LIMIT:
                int retry = state.rateLimitRetries() + 1;
                if (retry > backoff.maxRetries()) {
                    return Decision.RETURN;
                }
                Optional<Duration> asked = RetryAfter.parse(retryAfter, clock.instant());
                Duration delay = backoff.delayBefore(retry, asked);
                Duration exponential = backoff.delayBefore(retry, Optional.empty());
                if (!state.deadline().allows(delay)) {
                    // Without the agent the app would have had this response at once.
                    return Decision.RETURN_AT_DEADLINE;
                }
                state.countRateLimitRetry();
                return Decision.waitAndResend(delay, retry, delay.compareTo(exponential) > 0 ? "retry-after" : "backoff");
            default:
                return Decision.RETURN;
        }
    }
}
