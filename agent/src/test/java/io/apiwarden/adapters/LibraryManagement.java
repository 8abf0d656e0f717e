package io.apiwarden.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.core.Warden;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockWebServer;

/**
 * Library mode: each case's client is managed by a warden of its own, whose waits are on the test's time
 * ({@link FakeTimer}): flowing, a wait ends at once and moves the clock to where it would have ended;
 * held, the case looks at the calls while they wait. The token endpoint is in process.
 */
public final class LibraryManagement implements Management {
    /** How long threads on their way out of the agent's code (the last calls to start waiting) may take to go. */
    private static final Duration SETTLING = Duration.ofSeconds(5);

    private static final Duration PATIENCE = Duration.ofSeconds(10);
    /** The token requests' client of every case with a token endpoint over HTTP. */
    private static final HttpClient TOKEN_CLIENT = HttpClient.newHttpClient();
    /** The timer of the cases on real time, shared: one thread for them all. */
    private static final DelayScheduler REAL_TIME = new SystemDelayScheduler();

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer timer = FakeTimer.onItsThread(clock);
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
        WardenConfig config = TestWardens.config(all.toArray(new String[0]));
        if (config.dpop().isPresent()) {
            // DPoP is proved to the token endpoint too: the server's, over HTTP, not the in-process one. On real
            // time: the test's timer ends a call's time limit at once, so a refresh on the wire would always be late
            // for a client with a time limit of its own; and the server checks the proofs' times against its clock.
            return TestWardens.warden(
                    config,
                    new HttpTokenEndpoint(
                            URI.create(server.url("/auth/token").toString()),
                            null,
                            null,
                            PATIENCE,
                            () -> TOKEN_CLIENT,
                            REAL_TIME,
                            Clock.systemUTC()),
                    REAL_TIME,
                    Clock.systemUTC());
        }
        return TestWardens.warden(config, tokens, timer, clock);
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
    public boolean awaitWaitBegun(ScriptedApi api, String path, int sent, Duration patience) {
        return Eventually.holdsWithin(patience, () -> timer.waiting() >= 1)
                && api.requests(path).size() == sent;
    }

    @Override
    public void endHeldWaits() {
        timer.releaseHeld();
    }

    @Override
    public void assertNoThreadHeldWhileWaiting(ClientFace face, List<Running> calls) throws Exception {
        assertThat(Eventually.settled(SETTLING, timer::waiting, n -> n >= calls.size()))
                .as("calls waiting of %d", calls.size())
                .isGreaterThanOrEqualTo(calls.size());
        // Threads still on their way out of the agent's code or the client's (the last calls to start waiting)
        // are gone in a moment; a thread a wait holds stays, and fails the case.
        assertThat(Eventually.settled(SETTLING, ParkedThreads::inAgentCode, List::isEmpty))
                .as("threads parked in the agent's code while %d calls wait", calls.size())
                .isEmpty();
        face.busyClientThreads().ifPresent(busy -> assertThat(Eventually.settled(
                        SETTLING, () -> face.busyClientThreads().getAsInt(), n -> n == 0))
                .as("the client's threads busy with calls")
                .isZero());
        timer.flow();
    }

    @Override
    public void assertWaitGivenUp(Duration asked) throws Exception {
        assertThat(Eventually.holdsWithin(SETTLING, () -> timer.waiting() == 0))
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
