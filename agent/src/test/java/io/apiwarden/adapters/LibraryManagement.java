package io.apiwarden.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockWebServer;

/**
 * Library mode: each case's client is managed by a warden of its own, whose waits are on the test's time
 * ({@link ControlledTimer}): flowing, a wait ends at once and moves the clock to where it would have ended;
 * held, the case looks at the calls while they wait. The token endpoint is in process.
 */
public final class LibraryManagement implements Management {
    /** How long threads on their way out of the agent's code (the last calls to start waiting) may take to go. */
    private static final Duration SETTLING = Duration.ofSeconds(5);

    private final MutableClock clock = MutableClock.atEpochDay();
    private final ControlledTimer timer = new ControlledTimer(clock);
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private final MockWebServer server = new MockWebServer();

    @Override
    public MockWebServer apiServer(Dispatcher api) throws Exception {
        server.setDispatcher(api);
        server.start(0);
        return server;
    }

    @Override
    public long nanoTime() {
        Instant now = clock.instant();
        return TimeUnit.SECONDS.toNanos(now.getEpochSecond()) + now.getNano();
    }

    @Override
    public Warden warden(String apiBaseUrl, Map<String, String> properties) {
        List<String> all = new ArrayList<>(List.of(
                "apiwarden.base-url",
                apiBaseUrl,
                "apiwarden.access-token",
                "access-0",
                "apiwarden.refresh-token",
                "refresh-0",
                "apiwarden.token-url",
                server.url("/auth/token").toString()));
        properties.forEach((k, v) -> all.addAll(List.of(k, v)));
        return TestWardens.warden(TestWardens.config(all.toArray(new String[0])), tokens, timer, clock);
    }

    @Override
    public int refreshes() {
        return tokens.requests();
    }

    @Override
    public void holdWaits() {
        timer.hold();
    }

    @Override
    public boolean awaitWaitBegun(ScriptedApi api, String path, int sent, Duration patience)
            throws InterruptedException {
        return timer.awaitWaiting(1, patience) && api.requests(path).size() == sent;
    }

    @Override
    public void endHeldWaits() {
        timer.releaseHeld();
    }

    @Override
    public void assertNoThreadHeldWhileWaiting(ClientFace face, List<Running> calls) throws Exception {
        assertThat(timer.awaitWaiting(calls.size(), SETTLING))
                .as("all %d calls wait (%d do)", calls.size(), timer.waiting())
                .isTrue();
        // Threads still on their way out of the agent's code or the client's (the last calls to start waiting)
        // are gone in a moment; a thread a wait holds stays, and fails the case.
        assertThat(settled(ParkedThreads::inAgentCode, List::isEmpty))
                .as("threads parked in the agent's code while %d calls wait", calls.size())
                .isEmpty();
        face.busyClientThreads().ifPresent(busy -> assertThat(
                        settled(() -> face.busyClientThreads().getAsInt(), n -> n == 0))
                .as("the client's threads busy with calls")
                .isZero());
        timer.flow();
    }

    /** What {@code look} sees once it is {@code settled}, or after {@link #SETTLING} when it never is. */
    private static <T> T settled(Supplier<T> look, Predicate<T> settled) {
        long end = System.nanoTime() + SETTLING.toNanos();
        T seen = look.get();
        while (!settled.test(seen) && System.nanoTime() < end) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            seen = look.get();
        }
        return seen;
    }

    @Override
    public void assertWaitGivenUp(Duration asked) throws Exception {
        assertThat(timer.awaitNoneWaiting(SETTLING))
                .as(() -> "the wait was given up; still held:\n" + timer.describeHeld())
                .isTrue();
        assertThat(timer.givenUp()).isEqualTo(1);
        timer.flow();
    }

    @Override
    public void close() {
        timer.close();
        server.close();
    }
}
