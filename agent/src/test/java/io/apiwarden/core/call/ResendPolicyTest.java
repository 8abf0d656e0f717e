package io.apiwarden.core.call;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.testing.MutableClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class ResendPolicyTest {
    private final ResendPolicy policy = new ResendPolicy(
            new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), MutableClock.atEpochDay());
    private final CallState state = new CallState();

    private Decision decide(Verdict v) {
        return policy.decide(state, v, null, true, true, true);
    }

    @Test
    void anInvalidTokenEarnsOneRefreshPerCall() {
        assertThat(decide(Verdict.INVALID_TOKEN).action()).isEqualTo(Decision.Action.REFRESH_AND_RESEND);
        assertThat(decide(Verdict.INVALID_TOKEN).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(state.refreshes()).isEqualTo(1);
    }

    @Test
    void aGlobalRateLimitEarnsFiveDoublingWaits() {
        for (int i = 1; i <= 5; i++) {
            Decision d = decide(Verdict.GLOBAL_RATE_LIMIT);
            assertThat(d.action()).isEqualTo(Decision.Action.WAIT_AND_RESEND);
            assertThat(d.retry()).isEqualTo(i);
            assertThat(d.delay()).isEqualTo(Duration.ofSeconds(1L << i));
            assertThat(d.reason()).isEqualTo("backoff");
        }
        assertThat(decide(Verdict.GLOBAL_RATE_LIMIT).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(state.resends()).isEqualTo(5);
    }

    @Test
    void retryAfterIsNamedAsTheReasonWhenItIsLonger() {
        Decision d = policy.decide(state, Verdict.GLOBAL_RATE_LIMIT, "60", true, true, true);

        assertThat(d.delay()).isEqualTo(Duration.ofSeconds(60));
        assertThat(d.reason()).isEqualTo("retry-after");
    }

    @Test
    void nothingIsResentWhenItCannotHelpOrCannotBeRepeated() {
        assertThat(policy.decide(state, Verdict.GLOBAL_RATE_LIMIT, null, false, true, true).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(policy.decide(state, Verdict.INVALID_TOKEN, null, true, false, true).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(policy.decide(state, Verdict.INVALID_TOKEN, null, true, true, false).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(decide(Verdict.SERVER_ERROR).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(decide(Verdict.CLIENT_ERROR).action()).isEqualTo(Decision.Action.RETURN);
        assertThat(state.resends()).isZero();
    }

    @Test
    void aWaitThatWouldOutliveTheAppsOwnTimeLimitIsNotBegun() {
        MutableClock clock = MutableClock.atEpochDay();
        ResendPolicy timed = new ResendPolicy(new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), clock);
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(7), clock));

        assertThat(timed.decide(limited, Verdict.GLOBAL_RATE_LIMIT, null, true, true, true).delay()).isEqualTo(Duration.ofSeconds(2));
        clock.advance(Duration.ofSeconds(2));
        assertThat(timed.decide(limited, Verdict.GLOBAL_RATE_LIMIT, null, true, true, true).delay()).isEqualTo(Duration.ofSeconds(4));
        clock.advance(Duration.ofSeconds(4));
        Decision third = timed.decide(limited, Verdict.GLOBAL_RATE_LIMIT, null, true, true, true);

        assertThat(third.action()).isEqualTo(Decision.Action.RETURN);
        assertThat(third.reason()).isEqualTo("deadline");
        assertThat(limited.rateLimitRetries()).as("the wait not taken is not counted").isEqualTo(2);
    }

    @Test
    void aRetryAfterBeyondTheTimeLimitHandsTheResponseOverAtOnce() {
        MutableClock clock = MutableClock.atEpochDay();
        ResendPolicy timed = new ResendPolicy(new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), clock);
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(3), clock));

        assertThat(timed.decide(limited, Verdict.GLOBAL_RATE_LIMIT, "60", true, true, true).reason()).isEqualTo("deadline");
    }

    @Test
    void noRefreshIsBegunOnceTheTimeLimitHasPassed() {
        MutableClock clock = MutableClock.atEpochDay();
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(3), clock));
        clock.advance(Duration.ofSeconds(3));

        Decision d = policy.decide(limited, Verdict.INVALID_TOKEN, null, true, true, true);

        assertThat(d.action()).isEqualTo(Decision.Action.RETURN);
        assertThat(d.reason()).isEqualTo("deadline");
    }
}
