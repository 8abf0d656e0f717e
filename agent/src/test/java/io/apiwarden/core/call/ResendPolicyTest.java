package io.apiwarden.core.call;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ResendPolicyTest {
    private final ResendPolicy policy = new ResendPolicy(
            new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), MutableClock.atEpochDay());
    private final CallState state = new CallState();

    private Decision decide(Verdict v) {
        return policy.decide(state, v, null, BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);
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
        Decision d = policy.decide(
                state, Verdict.GLOBAL_RATE_LIMIT, "60", BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);

        assertThat(d.delay()).isEqualTo(Duration.ofSeconds(60));
        assertThat(d.reason()).isEqualTo("retry-after");
    }

    @Test
    void theGateClosesForTheServersRetryAfterElseForTheRefusedCallsOwnWait() {
        decide(Verdict.GLOBAL_RATE_LIMIT);
        decide(Verdict.GLOBAL_RATE_LIMIT);
        Decision third = policy.decide(
                state, Verdict.GLOBAL_RATE_LIMIT, "3", BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);
        assertThat(third.delay()).as("the refused call's own wait: 2^3 s").isEqualTo(Duration.ofSeconds(8));

        assertThat(policy.gateWindow(third, "3")).as("the server's window").isEqualTo(Duration.ofSeconds(3));
        assertThat(policy.gateWindow(third, "1")).as("at least the first wait").isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.gateWindow(third, "Thu, 01 Jan 2026 00:00:05 GMT"))
                .as("an HTTP date, 5 s after the test clock's now")
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(policy.gateWindow(third, null)).as("no header: its own wait").isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.gateWindow(third, "soon"))
                .as("an unreadable header is none")
                .isEqualTo(Duration.ofSeconds(8));
        assertThat(policy.gateWindow(Decision.RETRIES_SPENT, null))
                .as("not resent: the first wait")
                .isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.gateWindow(Decision.RETRIES_SPENT, "9")).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void waitsAtTheGateAndBackingOffTogetherStayWithinOneCallsWholeBackOff() {
        assertThat(policy.wholeBackOff()).as("2 + 4 + 8 + 16 + 32 s").isEqualTo(Duration.ofSeconds(62));
        assertThat(decide(Verdict.GLOBAL_RATE_LIMIT).delay()).isEqualTo(Duration.ofSeconds(2));
        state.waitedAtGate(Duration.ofSeconds(40));
        assertThat(policy.mayWait(state)).isEqualTo(Duration.ofSeconds(20));

        assertThat(decide(Verdict.GLOBAL_RATE_LIMIT).delay()).as("2 + 40 + 4 s").isEqualTo(Duration.ofSeconds(4));
        Decision third = decide(Verdict.GLOBAL_RATE_LIMIT);

        assertThat(third.action()).as("46 s + 8 s fit; 54 s + 16 s do not").isEqualTo(Decision.Action.WAIT_AND_RESEND);
        assertThat(decide(Verdict.GLOBAL_RATE_LIMIT).reason()).isEqualTo("waits_spent");
        assertThat(policy.mayWait(state)).isEqualTo(Duration.ofSeconds(8));
    }

    @Test
    void aRetryAfterLongerThanWhatIsLeftOfTheWholeBackOffGoesToTheApp() {
        Decision d = policy.decide(
                state, Verdict.GLOBAL_RATE_LIMIT, "99999999", BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);

        assertThat(d.reason())
                .as("never 5 minutes for one call: the app gets the 429 with its Retry-After")
                .isEqualTo("waits_spent");
        assertThat(state.resends()).isZero();
    }

    @Test
    void aCallWithAShortTimeLimitMayWaitAtTheGateNoLongerThanItsLimit() {
        MutableClock clock = MutableClock.atEpochDay();
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(3), clock), "GET", "/");

        assertThat(policy.mayWait(limited)).isEqualTo(Duration.ofSeconds(3));
        clock.advance(Duration.ofSeconds(5));
        assertThat(policy.mayWait(limited)).isZero();
    }

    @Test
    void nothingIsResentWhenItCannotHelpOrCannotBeRepeatedAndEachRefusalSaysWhy() {
        assertThat(policy.decide(
                                state,
                                Verdict.GLOBAL_RATE_LIMIT,
                                null,
                                BodyReplay.NOT_REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("body_not_repeatable");
        assertThat(policy.decide(
                                state,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.TOO_LARGE_TO_REPLAY,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("body_too_large_to_replay");
        assertThat(policy.decide(
                                state,
                                Verdict.GLOBAL_RATE_LIMIT,
                                null,
                                BodyReplay.NOT_FINISHED,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("body_not_finished");
        assertThat(policy.decide(
                                state,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                false,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("app_authorization");
        assertThat(policy.decide(
                                state,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                false,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("no_refresh");
        assertThat(decide(Verdict.SERVER_ERROR)).isEqualTo(Decision.returnToApp());
        assertThat(decide(Verdict.CLIENT_ERROR)).isEqualTo(Decision.returnToApp());
        assertThat(decide(Verdict.SUCCESS).reason()).isNull();
        assertThat(state.resends()).isZero();
    }

    @Test
    void aRequestRefusedAgainRightAfterARefreshCostsNoRefreshWithTheSameToken() {
        CallState first = new CallState(Deadline.NONE, "GET", "/v1/admin");
        first.sendingToken(0);
        assertThat(policy.decide(
                                first,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .action())
                .isEqualTo(Decision.Action.REFRESH_AND_RESEND);
        first.sendingToken(1);
        assertThat(policy.decide(
                                first,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("refreshed_already");

        CallState again = new CallState(Deadline.NONE, "GET", "/v1/admin");
        again.sendingToken(1);
        assertThat(policy.decide(
                                again,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("refused_for_rights");

        CallState otherResource = new CallState(Deadline.NONE, "GET", "/v1/user");
        otherResource.sendingToken(1);
        assertThat(policy.decide(
                                otherResource,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .action())
                .as("a refusal elsewhere means revoked or expired")
                .isEqualTo(Decision.Action.REFRESH_AND_RESEND);

        CallState newerToken = new CallState(Deadline.NONE, "GET", "/v1/admin");
        newerToken.sendingToken(2);
        assertThat(policy.decide(
                                newerToken,
                                Verdict.INVALID_TOKEN,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .action())
                .as("a new token may have other rights")
                .isEqualTo(Decision.Action.REFRESH_AND_RESEND);
    }

    @Test
    void theRefusalMemoryIsBounded() {
        RefusalMemory memory = new RefusalMemory();
        for (int i = 0; i < RefusalMemory.MAX_REQUESTS + 50; i++) {
            memory.remember("GET /v1/r" + i, 7);
        }

        assertThat(memory.size()).isEqualTo(RefusalMemory.MAX_REQUESTS);
        assertThat(memory.refusedForRights("GET /v1/r0", 7))
                .as("the oldest is forgotten first")
                .isFalse();
        assertThat(memory.refusedForRights("GET /v1/r" + (RefusalMemory.MAX_REQUESTS + 49), 7))
                .isTrue();
        memory.remember("GET /v1/x", 8);
        assertThat(memory.size()).as("a new generation starts afresh").isEqualTo(1);
    }

    @Test
    void aWaitThatWouldOutliveTheAppsOwnTimeLimitIsNotBegun() {
        MutableClock clock = MutableClock.atEpochDay();
        ResendPolicy timed =
                new ResendPolicy(new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), clock);
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(7), clock), "GET", "/v1/user");

        assertThat(timed.decide(
                                limited,
                                Verdict.GLOBAL_RATE_LIMIT,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .delay())
                .isEqualTo(Duration.ofSeconds(2));
        clock.advance(Duration.ofSeconds(2));
        assertThat(timed.decide(
                                limited,
                                Verdict.GLOBAL_RATE_LIMIT,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .delay())
                .isEqualTo(Duration.ofSeconds(4));
        clock.advance(Duration.ofSeconds(4));
        Decision third = timed.decide(
                limited, Verdict.GLOBAL_RATE_LIMIT, null, BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);

        assertThat(third.action()).isEqualTo(Decision.Action.RETURN);
        assertThat(third.reason()).isEqualTo("deadline");
        assertThat(limited.rateLimitRetries())
                .as("the wait not taken is not counted")
                .isEqualTo(2);
    }

    @Test
    void aRetryAfterBeyondTheTimeLimitHandsTheResponseOverAtOnce() {
        MutableClock clock = MutableClock.atEpochDay();
        ResendPolicy timed =
                new ResendPolicy(new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), clock);
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(3), clock), "GET", "/v1/user");

        assertThat(timed.decide(
                                limited,
                                Verdict.GLOBAL_RATE_LIMIT,
                                "60",
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.AS_PREPARED)
                        .reason())
                .isEqualTo("deadline");
    }

    @Test
    void noRefreshIsBegunOnceTheTimeLimitHasPassed() {
        MutableClock clock = MutableClock.atEpochDay();
        CallState limited = new CallState(Deadline.after(Duration.ofSeconds(3), clock), "GET", "/v1/user");
        clock.advance(Duration.ofSeconds(3));

        Decision d = policy.decide(
                limited, Verdict.INVALID_TOKEN, null, BodyReplay.REPEATABLE, true, true, OnTheWire.AS_PREPARED);

        assertThat(d.action()).isEqualTo(Decision.Action.RETURN);
        assertThat(d.reason()).isEqualTo("deadline");
    }

    @Test
    void aDpopNonceIsResentForOnceAtOnceAndCountedApartFromTheRefresh() {
        Decision nonce = decide(Verdict.DPOP_NONCE);
        assertThat(nonce.resendsWithNonce()).isTrue();
        assertThat(nonce.delay()).isZero();
        assertThat(decide(Verdict.INVALID_TOKEN).action()).isEqualTo(Decision.Action.REFRESH_AND_RESEND);

        assertThat(decide(Verdict.DPOP_NONCE).reason()).isEqualTo("nonce_resent_already");
        assertThat(state.nonceResends()).isEqualTo(1);
        assertThat(state.refreshes()).isEqualTo(1);
        assertThat(state.rateLimitRetries()).isZero();
    }

    @Test
    void aDpopNonceDemandOnTheAppsOwnAuthorizationIsTheApps() {
        assertThat(policy.decide(
                                state,
                                Verdict.DPOP_NONCE,
                                null,
                                BodyReplay.REPEATABLE,
                                true,
                                true,
                                OnTheWire.APP_AUTHORIZATION)
                        .reason())
                .isEqualTo("app_authorization");
        assertThat(state.nonceResends()).isZero();
    }
}
