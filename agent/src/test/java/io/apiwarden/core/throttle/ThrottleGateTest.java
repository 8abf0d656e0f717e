package io.apiwarden.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ThrottleGateTest {
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(62);
    private static final Duration LONGEST_WINDOW = Duration.ofMinutes(5);

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer time = FakeTimer.onTestTime(clock);
    private final ThrottleGate gate = new ThrottleGate(clock, time, LONGEST_WINDOW);

    @Test
    void openTheGateHandsOutOneSharedPassAndSchedulesNothing() {
        CompletableFuture<ThrottleGate.Pass> a = gate.enter(LONGEST_WAIT);
        CompletableFuture<ThrottleGate.Pass> b = gate.enter(LONGEST_WAIT);

        assertThat(a).isCompleted().isSameAs(b);
        gate.answered(a.join(), null);
        assertThat(gate.isClosed()).isFalse();
        assertThat(time.waiting()).isZero();
    }

    @Test
    void aRefusalClosesTheGateForTheWindowAndNewCallsWait() {
        ThrottleGate.Pass sent = gate.enter(LONGEST_WAIT).join();
        gate.refused(sent, Duration.ofSeconds(3));

        List<CompletableFuture<ThrottleGate.Pass>> waiting = enterMany(5);
        time.advance(Duration.ofMillis(2999));

        assertThat(waiting).noneMatch(CompletableFuture::isDone);
        assertThat(gate.waiting()).isEqualTo(5);
        assertThat(gate.opensAt()).isEqualTo(clock.instant().plusMillis(1));
    }

    @Test
    void whenTheWindowEndsOneCallGoesFirstAndItsAnswerOpensTheGateForTheRest() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(3));
        List<CompletableFuture<ThrottleGate.Pass>> waiting = enterMany(5);

        time.advance(Duration.ofSeconds(3));

        assertThat(waiting.get(0)).isCompleted();
        ThrottleGate.Pass first = waiting.get(0).join();
        assertThat(first.first()).isTrue();
        assertThat(first.waited()).isEqualTo(Duration.ofSeconds(3));
        assertThat(waiting.subList(1, 5)).noneMatch(CompletableFuture::isDone);

        gate.answered(first, null);

        assertThat(waiting).allMatch(CompletableFuture::isDone);
        assertThat(waiting.subList(1, 5)).allMatch(f -> !f.join().first());
        assertThat(gate.isClosed()).isFalse();
        assertThat(time.waiting()).as("no timer left behind").isZero();
    }

    @Test
    void aRefusalOfTheFirstCallClosesTheGateForTheNextWindowAndTheNextGoesFirstThen() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(2));
        List<CompletableFuture<ThrottleGate.Pass>> waiting = enterMany(3);
        time.advance(Duration.ofSeconds(2));
        ThrottleGate.Pass first = waiting.get(0).join();

        gate.refused(first, Duration.ofSeconds(4));
        time.advance(Duration.ofMillis(3999));
        assertThat(waiting.get(1)).isNotDone();

        time.advance(Duration.ofMillis(1));
        assertThat(waiting.get(1).join().first()).isTrue();
        assertThat(waiting.get(2)).isNotDone();
    }

    @Test
    void aDueRetryGoesFirstBeforeCallsThatWereNeverSent() {
        ThrottleGate.Pass refusedCall = gate.enter(LONGEST_WAIT).join();
        gate.refused(refusedCall, Duration.ofSeconds(2));
        CompletableFuture<ThrottleGate.Pass> freshCall = gate.enter(LONGEST_WAIT);
        time.advance(Duration.ofMillis(1999));
        // The refused call's own back-off ends with the window: it asks again just as it ends.
        CompletableFuture<ThrottleGate.Pass> retry = gate.enterRetry(LONGEST_WAIT);

        time.advance(Duration.ofMillis(1));

        assertThat(retry.join().first()).isTrue();
        assertThat(freshCall).isNotDone();
    }

    @Test
    void whenNobodyWaitsAsTheWindowEndsTheNextCallToComeGoesFirst() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(1));
        time.advance(Duration.ofSeconds(5));

        CompletableFuture<ThrottleGate.Pass> next = gate.enter(LONGEST_WAIT);
        CompletableFuture<ThrottleGate.Pass> after = gate.enter(LONGEST_WAIT);

        assertThat(next.join().first()).isTrue();
        assertThat(after).isNotDone();
        gate.answered(next.join(), null);
        assertThat(after.join().first()).isFalse();
    }

    @Test
    void anAnnouncedEmptyWindowClosesTheGateBeforeAnyoneIsRefused() {
        ThrottleGate.Pass sent = gate.enter(LONGEST_WAIT).join();
        gate.answered(sent, Duration.ofSeconds(4));

        CompletableFuture<ThrottleGate.Pass> next = gate.enter(LONGEST_WAIT);
        time.advance(Duration.ofMillis(3999));
        assertThat(next).isNotDone();
        time.advance(Duration.ofMillis(1));
        assertThat(next.join().first()).isTrue();
    }

    @Test
    void aLateAnswerToACallSentBeforeTheWindowDoesNotOpenIt() {
        ThrottleGate.Pass early = gate.enter(LONGEST_WAIT).join();
        ThrottleGate.Pass other = gate.enter(LONGEST_WAIT).join();
        gate.refused(other, Duration.ofSeconds(3));
        CompletableFuture<ThrottleGate.Pass> waiting = gate.enter(LONGEST_WAIT);

        gate.answered(early, null);

        assertThat(gate.isClosed()).isTrue();
        assertThat(waiting).isNotDone();
    }

    @Test
    void noCallWaitsLongerThanTheWholeBackOffOfOneCallThenItGoesItself() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(30));
        time.advance(Duration.ofSeconds(30));
        CompletableFuture<ThrottleGate.Pass> first = gate.enter(LONGEST_WAIT);
        assertThat(first.join().first()).isTrue();
        // The first call never reports back (its answer is slow): the others must not wait for ever.
        CompletableFuture<ThrottleGate.Pass> stuck = gate.enter(LONGEST_WAIT);

        time.advance(LONGEST_WAIT.minusMillis(1));
        assertThat(stuck).isNotDone();
        time.advance(Duration.ofMillis(1));

        assertThat(stuck.join().first()).isFalse();
        assertThat(stuck.join().waited()).isEqualTo(LONGEST_WAIT);
        assertThat(gate.waiting()).isZero();
    }

    @Test
    void aCancelledWaiterGivesUpItsPlaceAndItsTimer() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(3));
        CompletableFuture<ThrottleGate.Pass> cancelled = gate.enter(LONGEST_WAIT);
        CompletableFuture<ThrottleGate.Pass> other = gate.enter(LONGEST_WAIT);

        cancelled.cancel(false);

        assertThat(gate.waiting()).isEqualTo(1);
        time.advance(Duration.ofSeconds(3));
        assertThat(other.join().first()).as("the next in line goes first").isTrue();
    }

    @Test
    void aFirstCallThatEndsWithNoAnswerHandsTheTurnToTheNext() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(1));
        List<CompletableFuture<ThrottleGate.Pass>> waiting = enterMany(2);
        time.advance(Duration.ofSeconds(1));

        gate.abandoned(waiting.get(0).join());

        assertThat(waiting.get(1).join().first()).isTrue();
    }

    @Test
    void aLateRefusalOfACallSentBeforeTheGateClosedLeavesTheWindowAsItIs() {
        ThrottleGate.Pass a = gate.enter(LONGEST_WAIT).join();
        ThrottleGate.Pass b = gate.enter(LONGEST_WAIT).join();
        ThrottleGate.Pass c = gate.enter(LONGEST_WAIT).join();
        gate.refused(a, Duration.ofSeconds(2));
        time.advance(Duration.ofMillis(900));

        assertThat(gate.refused(b, Duration.ofSeconds(2)))
                .as("in flight as the gate closed: it says the limit holds, which the first refusal said first")
                .isNull();
        assertThat(gate.refused(c, Duration.ofSeconds(1))).isNull();
        CompletableFuture<ThrottleGate.Pass> waiting = gate.enter(LONGEST_WAIT);
        time.advance(Duration.ofMillis(1099));
        assertThat(waiting).isNotDone();
        time.advance(Duration.ofMillis(1));
        assertThat(waiting.join().first())
                .as("at the first refusal's end, not 900 ms later")
                .isTrue();
    }

    @Test
    void aLateRefusalWithALongerWindowClosesTheGateForIt() {
        ThrottleGate.Pass a = gate.enter(LONGEST_WAIT).join();
        ThrottleGate.Pass b = gate.enter(LONGEST_WAIT).join();
        gate.refused(a, Duration.ofSeconds(2));
        time.advance(Duration.ofMillis(900));

        assertThat(gate.refused(b, Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(gate.opensAt()).isEqualTo(clock.instant().plusSeconds(30));
    }

    @Test
    void aStragglerRefusedJustAfterTheWindowsEndNeitherClosesTheGateAgainNorSilencesTheFirstCallsAnswer() {
        ThrottleGate.Pass straggler = gate.enter(LONGEST_WAIT).join();
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(1));
        List<CompletableFuture<ThrottleGate.Pass>> waiting = enterMany(3);
        time.advance(Duration.ofSeconds(1));
        ThrottleGate.Pass first = waiting.get(0).join();
        assertThat(first.first()).isTrue();

        assertThat(gate.refused(straggler, Duration.ofSeconds(1))).isNull();
        gate.answered(first, null);

        assertThat(gate.isClosed()).isFalse();
        assertThat(waiting).allMatch(CompletableFuture::isDone);
    }

    @Test
    void aRefusalOfACallSentThroughTheClosedGateClosesItAgain() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(30));
        time.advance(Duration.ofSeconds(1));

        ThrottleGate.Pass hurried = gate.enter(Duration.ofSeconds(1)).join();
        assertThat(gate.refused(hurried, Duration.ofSeconds(1)))
                .as("sent through the closed gate: news about the window")
                .isEqualTo(Duration.ofSeconds(1));
    }

    // Issue 19: windows nobody can vouch for.

    @Test
    void noWindowIsLongerThanTheLongestWhoeverClaimsIt() {
        assertThat(gate.heard(Duration.ofDays(365))).as("a fleet message").isEqualTo(LONGEST_WINDOW);
        assertThat(gate.opensAt()).isEqualTo(clock.instant().plus(LONGEST_WINDOW));
        assertThat(gate.answered(gate.enter(LONGEST_WAIT).join(), Duration.ofDays(1)))
                .as("an exhausted RateLimit header")
                .isEqualTo(LONGEST_WINDOW);
        assertThat(gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofDays(1)))
                .isEqualTo(LONGEST_WINDOW);
        assertThat(gate.opensAt()).isEqualTo(clock.instant().plus(LONGEST_WINDOW));
    }

    @Test
    void aWindowTooLongForAnyTimerNeverThrowsIntoTheCallThatMeetsIt() {
        // The real scheduler: its timers are nanoseconds in a long, which 2^63 ms overflowed (ArithmeticException).
        ThrottleGate real = new ThrottleGate(clock, new SystemDelayScheduler(), LONGEST_WINDOW);
        real.heard(Duration.ofMillis(Long.MAX_VALUE));

        CompletableFuture<ThrottleGate.Pass> cannotWaitItOut = real.enter(LONGEST_WAIT);
        CompletableFuture<ThrottleGate.Pass> waits = real.enter(LONGEST_WINDOW.plusSeconds(1));

        assertThat(cannotWaitItOut).isCompleted();
        assertThat(waits).isNotDone();
        waits.cancel(false);
    }

    @Test
    void aCallThatCannotWaitOutTheWindowGoesAtOnceAndItsSuccessOpensTheGateForEveryone() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(30));
        CompletableFuture<ThrottleGate.Pass> patient = gate.enter(LONGEST_WAIT);
        CompletableFuture<ThrottleGate.Pass> hurried = gate.enter(Duration.ofSeconds(3));

        assertThat(patient).isNotDone();
        assertThat(hurried).isCompleted();
        assertThat(hurried.join().first()).isFalse();

        gate.answered(hurried.join(), null);

        assertThat(patient).isCompleted();
        assertThat(gate.isClosed()).isFalse();
        assertThat(time.waiting()).as("no timer left behind").isZero();
    }

    @Test
    void aSuccessOfACallThatWentThroughBeforeTheLatestRefusalSaysNothingAboutTheWindow() {
        gate.refused(gate.enter(LONGEST_WAIT).join(), Duration.ofSeconds(30));
        ThrottleGate.Pass hurried = gate.enter(Duration.ofSeconds(3)).join();
        ThrottleGate.Pass other = gate.enter(Duration.ofSeconds(3)).join();
        gate.refused(other, Duration.ofSeconds(2));

        gate.answered(hurried, null);

        assertThat(gate.isClosed()).isTrue();
    }

    private List<CompletableFuture<ThrottleGate.Pass>> enterMany(int n) {
        List<CompletableFuture<ThrottleGate.Pass>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(gate.enter(LONGEST_WAIT));
        }
        return all;
    }
}
