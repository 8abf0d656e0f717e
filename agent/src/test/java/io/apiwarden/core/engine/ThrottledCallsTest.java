package io.apiwarden.core.engine;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import io.apiwarden.testing.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calls of one JVM meeting the API's global rate limit through the engine: the gate holds the
 * calls that start during a window, one goes first when it ends, and the retry budget bounds the
 * resends. Asynchronous calls on virtual time: nothing waits for real.
 */
class ThrottledCallsTest {
    private static final String RATE_LIMIT = "API rate limit exceeded (global)";

    private final MutableClock clock = MutableClock.atEpochDay();
    private final VirtualTimeScheduler time = new VirtualTimeScheduler(clock);
    private final FakeExchange client = new FakeExchange(time);

    private Warden warden(String... extra) {
        List<String> props = new ArrayList<>(List.of("apiwarden.base-url", "https://api.example/v1",
                "apiwarden.access-token", "access-0", "apiwarden.backoff.initial-delay", "1s"));
        props.addAll(List.of(extra));
        return new Warden(TestWardens.config(props.toArray(new String[0])), new FakeTokenEndpoint(), time, clock);
    }

    private CompletableFuture<FakeExchange.Reply> start(Warden warden) {
        return new CallDriver<FakeExchange.Reply>(warden, "GET", "https://api.example/v1/user", "api.example", -1,
                "/v1/user", null).runAsync(client);
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
        client.reply(200, "first").reply(200, "a").reply(200, "b").reply(200, "c").reply(200, "d");

        List<CompletableFuture<FakeExchange.Reply>> later = start(warden, 4, this);
        time.advance(Duration.ofMillis(999));

        assertThat(client.sent).as("nothing more reaches the API while the window holds").hasSize(1);
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
        // The first retry was refused again: its next wait is 2 s, and the window with it.
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
        Warden warden = warden("apiwarden.throttle.retry-budget.ratio", "0", "apiwarden.throttle.retry-budget.min-per-second", "0");
        client.reply(429, RATE_LIMIT);

        FakeExchange.Reply reply = start(warden).join();

        assertThat(reply.status).isEqualTo(429);
        assertThat(client.sent).hasSize(1);
        assertThat(warden.throttleGate().isClosed()).as("the window holds for the others all the same").isTrue();
    }
}
