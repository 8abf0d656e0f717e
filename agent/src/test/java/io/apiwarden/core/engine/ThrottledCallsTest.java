package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.RecordingTelemetry;
import io.apiwarden.testing.TestWardens;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Calls of one JVM meeting the API's global rate limit through the engine: the gate holds the
 * calls that start during a window, one goes first when it ends, and the retry budget bounds the
 * resends. Asynchronous calls on virtual time: nothing waits for real.
 */
class ThrottledCallsTest {
    private static final String RATE_LIMIT = "API rate limit exceeded (global)";

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer time = FakeTimer.onTestTime(clock);
    private final FakeExchange client = new FakeExchange(time);

    private Warden warden(String... extra) {
        List<String> props = new ArrayList<>(List.of(
                "apiwarden.base-url",
                "https://api.example/v1",
                "apiwarden.access-token",
                "access-0",
                "apiwarden.backoff.initial-delay",
                "1s"));
        props.addAll(List.of(extra));
        return new Warden(TestWardens.config(props.toArray(new String[0])), new FakeTokenEndpoint(), time, clock);
    }

    private CompletableFuture<FakeExchange.Reply> start(Warden warden) {
        return start(warden, null);
    }

    /** A call with the app's own time limit {@code appTimeout} (null: none). */
    private CompletableFuture<FakeExchange.Reply> start(Warden warden, Duration appTimeout) {
        return new CallDriver<FakeExchange.Reply>(
                        warden, CallTarget.of("GET", URI.create("https://api.example/v1/user")), appTimeout)
                .runAsync(client);
    }

    private static List<CompletableFuture<FakeExchange.Reply>> start(Warden warden, int calls, ThrottledCallsTest t) {
        List<CompletableFuture<FakeExchange.Reply>> all = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            all.add(t.start(warden));
        }
        return all;
    }

    @Test
    void callsThatStartDuringAWindowWaitAndTheRefusedCallGoesFirstWhenItEnds() {
        Warden warden = warden();
        client.reply(429, RATE_LIMIT);
        CompletableFuture<FakeExchange.Reply> refused = start(warden);
        client.reply(200, "first")
                .reply(200, "a")
                .reply(200, "b")
                .reply(200, "c")
                .reply(200, "d");

        List<CompletableFuture<FakeExchange.Reply>> later = start(warden, 4, this);
        time.advance(Duration.ofMillis(999));

        assertThat(client.sent)
                .as("nothing more reaches the API while the window holds")
                .hasSize(1);
        assertThat(later).noneMatch(CompletableFuture::isDone);

        time.advance(Duration.ofMillis(1));

        assertThat(refused.join().body).as("its own retry went first").isEqualTo("first");
        assertThat(later).allMatch(f -> f.join().status == 200);
        assertThat(client.sent).hasSize(6);
        assertThat(warden.throttleGate().isClosed()).isFalse();
    }

    @Test
    void aRefusalOfTheFirstCallKeepsTheOthersWaitingForTheNextWindow() {
        Warden warden = warden();
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT);
        CompletableFuture<FakeExchange.Reply> refused = start(warden);
        List<CompletableFuture<FakeExchange.Reply>> later = start(warden, 3, this);

        time.advance(Duration.ofSeconds(1));
        // The first retry was refused again, with no Retry-After: its next wait is 2 s, and the window with it.
        assertThat(client.sent).hasSize(2);
        client.reply(200, "ok").reply(200, "ok").reply(200, "ok").reply(200, "ok");
        time.advance(Duration.ofMillis(1999));
        assertThat(client.sent).hasSize(2);

        time.advance(Duration.ofMillis(1));

        assertThat(refused.join().status).isEqualTo(200);
        assertThat(later).allMatch(f -> f.join().status == 200);
        assertThat(client.sent).hasSize(6);
    }

    @Test
    void aRetryAfterShorterThanTheRefusedCallsOwnWaitClosesTheGateOnlyUntilTheServerSaid() {
        Warden warden = warden();
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT).reply(429, RATE_LIMIT, "Retry-After", "1");
        CompletableFuture<FakeExchange.Reply> refused = start(warden);
        time.advance(Duration.ofSeconds(1 + 2));
        assertThat(client.sent)
                .as("the first send and its resends after 1 and 2 s")
                .hasSize(3);
        client.reply(200, "a").reply(200, "b").reply(200, "c").reply(200, "its own");

        // Its third refusal: it backs off 4 s by the spec's rule, but the server said the limit holds 1 s.
        List<CompletableFuture<FakeExchange.Reply>> later = start(warden, 3, this);
        time.advance(Duration.ofMillis(999));
        assertThat(client.sent).as("the others wait out the server's window").hasSize(3);
        time.advance(Duration.ofMillis(1));

        assertThat(later)
                .as("sent when the server said, not after the refused call's 4 s")
                .allMatch(f -> f.isDone() && f.join().status == 200);
        assertThat(refused).as("the refused call keeps its own wait").isNotDone();
        time.advance(Duration.ofMillis(2999));
        assertThat(refused).isNotDone();
        time.advance(Duration.ofMillis(1));
        assertThat(refused.join().body).isEqualTo("its own");
        assertThat(client.sent).hasSize(7);
    }

    @Test
    void theRefusalsOfCallsInFlightAsTheGateClosedCloseNothingAndAreNotRecordedAsClosings() {
        RecordingTelemetry telemetry = new RecordingTelemetry();
        Warden warden = new Warden(
                TestWardens.config(
                        "apiwarden.base-url", "https://api.example/v1",
                        "apiwarden.access-token", "access-0",
                        "apiwarden.backoff.initial-delay", "1s"),
                new FakeTokenEndpoint(),
                time,
                clock,
                telemetry);
        client.reply(429, RATE_LIMIT, "Retry-After", "1")
                .reply(429, RATE_LIMIT, "Retry-After", "1")
                .reply(429, RATE_LIMIT, "Retry-After", "1");
        // All three sent before the first refusal comes back, as concurrent callers are.
        client.wire = new CompletableFuture<>();
        List<CompletableFuture<FakeExchange.Reply>> calls = start(warden, 3, this);
        client.wire.complete(null);
        client.wire = null;

        assertThat(telemetry.gateClosings)
                .as("the first refusal closed the gate; the two late ones nothing")
                .containsExactly(Duration.ofSeconds(1));
        assertThat(warden.throttleGate().opensAt()).isEqualTo(clock.instant().plusSeconds(1));
        client.reply(200, "a").reply(200, "b").reply(200, "c");
        time.advance(Duration.ofSeconds(1));
        assertThat(calls).allMatch(f -> f.isDone() && f.join().status == 200);
        assertThat(client.sent).hasSize(6);
    }

    @Test
    void anAnswerThatSaysNothingIsLeftClosesTheGateUntilTheResetWithoutARefusal() {
        Warden warden = warden();
        client.reply(200, "last of the window", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "3");
        assertThat(start(warden).join().status).isEqualTo(200);
        client.reply(200, "after the reset").reply(200, "after the reset");

        List<CompletableFuture<FakeExchange.Reply>> later = start(warden, 2, this);
        time.advance(Duration.ofMillis(2999));
        assertThat(client.sent).hasSize(1);
        time.advance(Duration.ofMillis(1));

        assertThat(later).allMatch(f -> f.join().body.equals("after the reset"));
        assertThat(client.sent).hasSize(3);
    }

    @Test
    void cancellingACallThatWaitsAtTheGateGivesUpItsPlace() {
        Warden warden = warden();
        client.reply(429, RATE_LIMIT);
        start(warden);
        CompletableFuture<FakeExchange.Reply> waiting = start(warden);
        assertThat(warden.throttleGate().waiting()).isEqualTo(1);

        waiting.cancel(false);

        assertThat(warden.throttleGate().waiting()).isZero();
    }

    @Test
    void withTheGateSwitchedOffEveryCallGoesAtOnce() {
        Warden warden = warden("apiwarden.throttle.gate.enabled", "false");
        client.reply(429, RATE_LIMIT).reply(429, RATE_LIMIT).reply(429, RATE_LIMIT);

        start(warden, 3, this);

        assertThat(warden.throttleGate()).isNull();
        assertThat(client.sent).hasSize(3);
    }

    @Test
    void whenTheRetryBudgetIsSpentTheAppGetsTheRefusalAtOnce() {
        Warden warden = warden(
                "apiwarden.throttle.retry-budget.ratio", "0", "apiwarden.throttle.retry-budget.min-per-second", "0");
        client.reply(429, RATE_LIMIT);

        FakeExchange.Reply reply = start(warden).join();

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sent).hasSize(1);
        assertThat(warden.throttleGate().isClosed())
                .as("the window holds for the others all the same")
                .isTrue();
    }

    // Issue 19: windows the agent cannot justify, and waits that outgrow one call's bound.

    /** With the back-off starting at 1 s: 1 + 2 + 4 + 8 + 16 s, all one call may spend waiting. */
    private static final Duration WHOLE_BACK_OFF = Duration.ofSeconds(31);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "RateLimit: \"p\";r=0;t=86400",
                "RateLimit: remaining=0, reset=86400",
                "X-RateLimit-Remaining: 0|X-RateLimit-Reset: 86400",
                "X-RateLimit-Remaining: 0|X-RateLimit-Reset: A DAY AHEAD"
            })
    void oneSuccessAnnouncingADayLongWindowHoldsNoLaterCall(String announcement) {
        Warden warden = warden();
        List<String> headers = new ArrayList<>();
        for (String h : announcement.split("\\|")) {
            int colon = h.indexOf(':');
            headers.add(h.substring(0, colon));
            headers.add(h.substring(colon + 2)
                    .replace(
                            "A DAY AHEAD",
                            Long.toString(
                                    clock.instant().plus(Duration.ofDays(1)).getEpochSecond())));
        }
        client.reply(200, "announces a day", headers.toArray(new String[0]));
        assertThat(start(warden).join().status).isEqualTo(200);
        client.reply(200, "at once").reply(200, "at once").reply(200, "at once");

        CompletableFuture<FakeExchange.Reply> unlimited = start(warden);
        CompletableFuture<FakeExchange.Reply> limited = start(warden, Duration.ofSeconds(3));

        assertThat(unlimited)
                .as("no call can wait out a window longer than its whole back-off: it goes")
                .isCompleted();
        assertThat(unlimited.join().body).isEqualTo("at once");
        assertThat(limited).isCompleted();
        assertThat(limited.join().body).isEqualTo("at once");
        assertThat(warden.throttleGate().isClosed())
                .as("the API's answer to a call that went through reopened it")
                .isFalse();
        assertThat(answeredNow(start(warden)).body).isEqualTo("at once");
    }

    @Test
    void aSuccessForACallThatWentThroughAClosedGateOpensItForEveryoneWaiting() {
        Warden warden = warden();
        client.reply(200, "last of the window", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "20");
        start(warden).join();
        List<CompletableFuture<FakeExchange.Reply>> waiting = start(warden, 3, this);
        assertThat(waiting).as("20 s is within a call's bound: they wait").noneMatch(CompletableFuture::isDone);
        client.reply(200, "ok").reply(200, "ok").reply(200, "ok").reply(200, "ok");

        CompletableFuture<FakeExchange.Reply> hurried = start(warden, Duration.ofSeconds(3));

        assertThat(hurried)
                .as("its 3 s cannot cover the window: it goes at once instead of timing out")
                .isCompleted();
        assertThat(hurried.join().status).isEqualTo(200);
        assertThat(waiting)
                .as("the API answered: the window was not what it said")
                .allMatch(f -> f.join().status == 200);
        assertThat(warden.throttleGate().isClosed()).isFalse();
    }

    @Test
    void aCallWithATimeLimitShorterThanARetryAfterWindowGetsTheApisAnswerNotATimeout() {
        Warden warden = warden();
        client.reply(429, RATE_LIMIT, "Retry-After", "99999999");
        assertThat(answeredNow(start(warden)).status)
                .as("no call waits 5 minutes")
                .isEqualTo(429);
        assertThat(warden.throttleGate().opensAt())
                .as("capped by apiwarden.backoff.max-delay")
                .isEqualTo(clock.instant().plus(Duration.ofMinutes(5)));
        client.reply(429, RATE_LIMIT, "Retry-After", "99999999").reply(200, "over");

        CompletableFuture<FakeExchange.Reply> refused = start(warden, Duration.ofSeconds(3));
        CompletableFuture<FakeExchange.Reply> answered = start(warden, Duration.ofSeconds(3));

        assertThat(refused).isCompleted();
        assertThat(refused.join().status).isEqualTo(429);
        assertThat(answered).isCompleted();
        assertThat(answered.join().body).isEqualTo("over");
        assertThat(client.sent).hasSize(3);
    }

    @Test
    void aHundredCallsIntoAThrottleThatNeverEndsAreAnsweredWithinOneCallsWholeBackOff() {
        Warden warden = warden("apiwarden.throttle.retry-budget.min-per-second", "1000");
        for (int i = 0; i < 100 * 6; i++) {
            client.reply(429, RATE_LIMIT);
        }
        Instant start = clock.instant();
        List<Duration> took = new ArrayList<>();
        // All sent before the first refusal comes back, as concurrent callers are.
        client.wire = new CompletableFuture<>();
        List<CompletableFuture<FakeExchange.Reply>> calls = start(warden, 100, this);
        calls.forEach(c -> c.whenComplete((r, e) -> took.add(Duration.between(start, clock.instant()))));
        client.wire.complete(null);
        client.wire = null;

        time.advance(Duration.ofMinutes(10));

        assertThat(took).hasSize(100);
        assertThat(calls).allMatch(f -> f.join().status == 429);
        assertThat(took.stream().max(Duration::compareTo).get())
                .as("the longest call")
                .isLessThanOrEqualTo(WHOLE_BACK_OFF);
    }

    @Test
    void aCallAloneIsResentFiveTimesAtTheSpecsWaitsWhileACallStartedInAnothersWindowCountsItsWaitThere() {
        Warden warden = warden();
        for (int i = 0; i < 12; i++) {
            client.reply(429, RATE_LIMIT);
        }
        Instant start = clock.instant();
        CompletableFuture<FakeExchange.Reply> alone = start(warden);
        time.advance(Duration.ofSeconds(30).plusMillis(999));
        assertThat(client.sent)
                .as("the first send and resends after 1 + 2 + 4 + 8 s")
                .hasSize(5);
        time.advance(Duration.ofMillis(1));
        assertThat(answeredNow(alone).status).isEqualTo(429);
        assertThat(client.sent)
                .as("its fifth resend, 16 s later: all its whole back-off")
                .hasSize(6);
        assertThat(Duration.between(start, clock.instant())).isEqualTo(WHOLE_BACK_OFF);

        // Its last refusal closed the gate for the API's window (1 s): a call that starts now waits it out
        // there, and that wait is part of its own whole back-off. So it is not a call alone: after
        // 1 + 1 + 2 + 4 + 8 s, a resend 16 s later would end past it, and the app gets the refusal.
        Instant second = clock.instant();
        List<Duration> took = new ArrayList<>();
        CompletableFuture<FakeExchange.Reply> inAWindow = start(warden);
        inAWindow.whenComplete((r, e) -> took.add(Duration.between(second, clock.instant())));
        time.advance(WHOLE_BACK_OFF);
        assertThat(answeredNow(inAWindow).status).isEqualTo(429);
        assertThat(client.sent).as("its first send and four resends").hasSize(11);
        assertThat(took).containsExactly(Duration.ofSeconds(1 + 1 + 2 + 4 + 8));
    }

    // A call that goes first after a window and ends without an answer must say so, or the gate waits for
    // an answer that never comes: every later call waits all it may (its whole back-off) before going.

    /** A warden that hands the app a refusal at once (no resend budget), the gate closed for 1 s after it. */
    private Warden wardenWithTheGateClosedForOneSecond() {
        Warden warden = warden(
                "apiwarden.throttle.retry-budget.ratio", "0", "apiwarden.throttle.retry-budget.min-per-second", "0");
        client.reply(429, RATE_LIMIT);
        assertThat(answeredNow(start(warden)).status).isEqualTo(429);
        assertThat(warden.throttleGate().isClosed()).isTrue();
        return warden;
    }

    /** The next call is sent at once and its answer opens the gate: no pass is left out with no call behind it. */
    private void assertTheNextCallGoesAtOnce(Warden warden, Deque<Runnable> queued) {
        int sentBefore = client.sent.size();
        client.reply(200, "next");
        CompletableFuture<FakeExchange.Reply> next = start(warden);
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
        assertThat(client.sent)
                .as("the next call was sent without waiting at the gate")
                .hasSize(sentBefore + 1);
        assertThat(answeredNow(next).body).isEqualTo("next");
        assertThat(warden.throttleGate().isClosed()).isFalse();
    }

    @Test
    void aCallCancelledAfterTheGateLetItGoFirstLeavesNoOneWaitingForItsAnswer() {
        Warden warden = wardenWithTheGateClosedForOneSecond();
        // The client's executor runs the call's continuation a moment after the gate let it go: the app cancels then.
        Deque<Runnable> queued = new ArrayDeque<>();
        client.completions = queued::add;
        CompletableFuture<FakeExchange.Reply> first = start(warden);
        time.advance(Duration.ofSeconds(1));
        assertThat(queued).as("let go first, its continuation not run yet").hasSize(1);

        first.cancel(false);
        queued.poll().run();

        assertThat(client.sent).as("the cancelled call sent nothing").hasSize(1);
        assertTheNextCallGoesAtOnce(warden, queued);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCallWhoseTimeLimitRanOutAsTheGateLetItGoFirstLeavesNoOneWaitingForItsAnswer(boolean blocking) {
        Warden warden = wardenWithTheGateClosedForOneSecond();
        time.advance(Duration.ofSeconds(1));
        CallDriver<FakeExchange.Reply> late = new CallDriver<>(
                warden, CallTarget.of("GET", URI.create("https://api.example/v1/user")), Duration.ZERO);

        if (blocking) {
            assertThatThrownBy(() -> late.run(client)).hasMessage("timed out");
        } else {
            assertThat(late.runAsync(client)).isCompletedExceptionally();
        }

        assertThat(client.sent).as("the late call sent nothing").hasSize(1);
        assertTheNextCallGoesAtOnce(warden, new ArrayDeque<>());
    }

    /** The call's answer, which must be there without any time passing (a join would hang the test otherwise). */
    private static FakeExchange.Reply answeredNow(CompletableFuture<FakeExchange.Reply> call) {
        assertThat(call).isCompleted();
        return call.join();
    }
}
