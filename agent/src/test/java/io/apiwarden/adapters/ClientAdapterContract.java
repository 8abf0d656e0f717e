package io.apiwarden.adapters;

import io.apiwarden.adapters.ClientFace.Body;
import io.apiwarden.adapters.ClientFace.Call;
import io.apiwarden.adapters.ClientFace.Reply;
import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.adapters.ScriptedApi.Arrival;
import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * What every client adapter promises, whatever the client: the bearer only in scope, one refresh and
 * one resend after an invalid token, the back-off of the global rate limit to the count and the delay,
 * no token across a redirect out of scope, waits that hold no thread, cancel. Each way of calling
 * each client (a {@link ClientFace}) has a subclass that makes its face for a client managed in library
 * mode; {@code ClientAdapterAgentIT} runs the same cases with the agent attached.
 *
 * <p>The agent's waits are on the test's time ({@link ControlledTimer}): a case either lets them end at
 * once, or holds them to look at a call while it waits, and asserts on the delays the agent asked for,
 * never on how long anything took. Assertions are on what the server received.
 *
 * <p>A face that cannot do what a case needs says why in {@link #cannot}; the case then reports that
 * reason instead of passing, or asserts what the adapter does instead.
 */
public abstract class ClientAdapterContract {
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final String USER = "/api/v1/user";
    private static final int STORM = 50;

    /** What a case needs that not every client can do. */
    protected enum Capability {
        /** Following a redirect itself. */
        FOLLOW_REDIRECTS,
        /** Sending a body that its client writes once again, from what the agent recorded of it. */
        RESEND_STREAMED_BODY,
        /** Cancelling a call while it waits. */
        CANCEL
    }

    protected final MutableClock clock = MutableClock.atEpochDay();
    protected final ControlledTimer timer = new ControlledTimer(clock);
    protected final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private final MockWebServer server = new MockWebServer();
    private final MockWebServer elsewhere = new MockWebServer();
    private final ScriptedApi api = new ScriptedApi();
    private final ScriptedApi elsewhereApi = new ScriptedApi();
    private final List<ClientFace> faces = new ArrayList<>();

    /**
     * The face under test, for a client managed by {@code warden} in library mode, following redirects
     * or not. The agent's waits are to go on {@code warden.scheduler()}.
     */
    protected abstract ClientFace face(Warden warden, boolean followRedirects) throws Exception;

    /** Why this face cannot do what {@code capability} asks, or null when it can. */
    protected String cannot(Capability capability) {
        return null;
    }

    @BeforeEach
    void startServers() throws Exception {
        server.setDispatcher(api);
        server.start(0);
        elsewhere.setDispatcher(elsewhereApi);
        elsewhere.start(0);
    }

    @AfterEach
    void stopAll() {
        faces.forEach(ClientFace::close);
        timer.close();
        server.close();
        elsewhere.close();
    }

    /** A face of a client managed by a warden of its own, with {@code properties} beside the suite's. */
    private ClientFace face(boolean followRedirects, String... properties) throws Exception {
        List<String> all = new ArrayList<>(List.of(
                "apiwarden.base-url", url("/api/v1"),
                "apiwarden.access-token", "access-0",
                "apiwarden.refresh-token", "refresh-0",
                "apiwarden.token-url", url("/auth/token"),
                "apiwarden.backoff.initial-delay", "1s"));
        all.addAll(List.of(properties));
        Warden warden = TestWardens.warden(TestWardens.config(all.toArray(new String[0])), tokens, timer, clock);
        ClientFace face = face(warden, followRedirects);
        faces.add(face);
        return face;
    }

    private String url(String path) {
        return server.url(path).toString();
    }

    /** The same server under another host name: another origin. */
    private String otherHostUrl(String path) {
        String host = server.getHostName();
        String alias = host.equals("localhost") ? "127.0.0.1" : "localhost";
        return server.url(path).newBuilder().host(alias).build().toString();
    }

    private void requireCapability(Capability capability) {
        String why = cannot(capability);
        if (why != null) {
            abort(capability + " not possible: " + why);
        }
    }

    private static List<String> bearers(List<Arrival> requests) {
        return requests.stream().map(Arrival::authorization).toList();
    }

    // ---------------------------------------------------------------------------------------------
    // The bearer, in scope only.

    @Test
    void theBearerGoesToTheApiAndNowhereElse() throws Exception {
        ClientFace face = face(false);

        assertThat(face.call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok " + USER));
        face.call(Call.get(url("/api/v1beta/user")));
        face.call(Call.get(url("/other")));
        face.call(Call.get(elsewhere.url("/api/v1/port").toString()));
        face.call(Call.get(otherHostUrl("/api/v1/host")));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0");
        assertThat(api.requests("/api/v1beta/user")).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(api.requests("/other")).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(elsewhereApi.requests("/api/v1/port")).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(api.requests("/api/v1/host")).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(tokens.requests()).isZero();
    }

    // ---------------------------------------------------------------------------------------------
    // One refresh, one resend.

    @Test
    void anInvalidTokenIsRefreshedOnceAndTheCallResentWithTheNewBearer() throws Exception {
        api.script(USER, ScriptedApi.invalidToken(), ScriptedApi.ok("user"));

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "user"));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0", "Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void anInvalidTokenAfterTheRefreshReachesTheAppWithoutAnotherRefresh() throws Exception {
        api.script(USER, ScriptedApi.invalidToken());

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(401, ScriptedApi.INVALID_TOKEN_BODY));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0", "Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aRepeatableBodyIsResentWholeAfterTheRefresh() throws Exception {
        api.script("/api/v1/items", ScriptedApi.invalidToken(), ScriptedApi.ok("made"));

        Reply reply = face(false).call(Call.post(url("/api/v1/items"), "{\"name\":\"a\"}", Body.REPEATABLE));

        assertThat(reply).isEqualTo(new Reply(200, "made"));
        assertThat(api.requests("/api/v1/items")).extracting(Arrival::body).containsExactly("{\"name\":\"a\"}", "{\"name\":\"a\"}");
    }

    @Test
    void aStreamedBodyIsRecordedAsSentAndResentWholeAfterTheRefresh() throws Exception {
        api.script("/api/v1/items", ScriptedApi.invalidToken(), ScriptedApi.ok("made"));
        String body = "{\"items\":\"" + "x".repeat(20_000) + "\"}";

        Reply reply = face(false).call(Call.post(url("/api/v1/items"), body, Body.STREAMED));

        if (cannot(Capability.RESEND_STREAMED_BODY) == null) {
            assertThat(reply).isEqualTo(new Reply(200, "made"));
            assertThat(api.requests("/api/v1/items")).extracting(Arrival::body).containsExactly(body, body);
            assertThat(tokens.requests()).isEqualTo(1);
        } else {
            // Not resent: the app gets the API's answer to the one attempt, as without the agent.
            assertThat(reply).isEqualTo(new Reply(401, ScriptedApi.INVALID_TOKEN_BODY));
            assertThat(api.requests("/api/v1/items")).extracting(Arrival::body).containsExactly(body);
            assertThat(tokens.requests()).isZero();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // An error body held to classify it, for a bounded time.

    @Test
    void anErrorBodySlowerThanTheBoundGoesToTheAppAsItIsJudgedByItsStatus() throws Exception {
        // Only the body's end says invalid_token, and the body comes a byte at a time: ~0.4 s in all, far past
        // the bound. Waited for whole, it would be refreshed and resent; past the bound it is the app's 403.
        String body = "{\"detail\":\"nope\",\"error\":\"invalid_token\"}";
        api.script(USER, () -> new MockResponse.Builder().code(403).body(body)
                .throttleBody(1, 10, TimeUnit.MILLISECONDS).build(), ScriptedApi.ok("user"));

        Reply reply = face(false, "apiwarden.classify.max-body-wait", "30ms").call(Call.get(url(USER)));

        assertThat(reply).isEqualTo(new Reply(403, body));
        assertThat(api.requests(USER)).hasSize(1);
        assertThat(tokens.requests()).isZero();
    }

    // ---------------------------------------------------------------------------------------------
    // The global rate limit's back-off.

    @Test
    void theRateLimitIsWaitedOutMaxRetriesTimesWithDelaysDoublingAndNothingGoesBeforeAWaitEnds() throws Exception {
        api.script(USER, ScriptedApi.rateLimited());
        timer.hold();

        ClientFace face = face(false);
        Running call = face.start(Call.get(url(USER)));
        for (int sent = 1; sent <= 5; sent++) {
            assertThat(timer.awaitWaiting(1, PATIENCE)).as("wait %d began", sent).isTrue();
            assertThat(api.requests(USER)).as("sent before wait %d ended", sent).hasSize(sent);
            timer.releaseHeld();
        }
        // A client that retries a 429 itself does so once the agent gave up, as without the agent; its
        // retry is the same call, with no back-off left, and may wait at the rate-limit gate.
        timer.flow();

        assertThat(call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(new Reply(429, ScriptedApi.RATE_LIMIT_BODY));
        assertThat(api.requests(USER)).hasSize(6 + face.ownRetriesOfARateLimit());
        assertThat(timer.delays()).startsWith(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(8), Duration.ofSeconds(16));
        if (face.ownRetriesOfARateLimit() == 0) {
            assertThat(timer.delays()).hasSize(5);
        }
    }

    @Test
    void aRateLimitedCallSucceedsOnceTheLimitLifts() throws Exception {
        api.script(USER, ScriptedApi.rateLimited(), ScriptedApi.rateLimited(), ScriptedApi.ok("user"));

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "user"));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0", "Bearer access-0", "Bearer access-0");
        assertThat(timer.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    // ---------------------------------------------------------------------------------------------
    // Redirects.

    @Test
    void aRedirectToAnotherOriginNeverCarriesTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, elsewhere.url("/landing").toString()));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /landing"));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0");
        assertThat(elsewhereApi.requests("/landing")).singleElement().extracting(Arrival::authorization).isNull();
    }

    @Test
    void aRedirectOutsideTheBasePathNeverCarriesTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, "/other/landing"));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /other/landing"));

        assertThat(bearers(api.requests(USER))).containsExactly("Bearer access-0");
        assertThat(api.requests("/other/landing")).singleElement().extracting(Arrival::authorization).isNull();
    }

    @Test
    void aRedirectWithinTheApiKeepsTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, "/api/v1/users/me"));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /api/v1/users/me"));

        assertThat(bearers(api.requests("/api/v1/users/me"))).containsExactly("Bearer access-0");
    }

    // ---------------------------------------------------------------------------------------------
    // Waits that hold no thread, and cancel.

    @Test
    void asyncCallsWaitingOutTheRateLimitHoldNoThread() throws Exception {
        // The gate is off so that every call is sent and waits its own back-off: then the waits can be
        // counted. Calls waiting at the gate hold no thread either (ThrottledCallsTest).
        ClientFace face = face(false, "apiwarden.throttle.gate.enabled", "false");
        if (!face.async()) {
            abort("a blocking call waits on the app's own thread, which the app gave it: nothing to hold");
        }
        api.script(USER, ScriptedApi.rateLimited());
        timer.hold();

        List<Running> calls = new ArrayList<>();
        for (int i = 0; i < STORM; i++) {
            calls.add(face.start(Call.get(url(USER))));
        }
        assertThat(timer.awaitWaiting(STORM, PATIENCE)).as("all %d calls wait (%d do)", STORM, timer.waiting()).isTrue();

        assertThat(awaitNoThreadParkedInTheAgent()).as("threads parked in the agent's code while %d calls wait", STORM).isEmpty();
        if (face.busyClientThreads().isPresent()) {
            assertThat(awaitNoBusyClientThread(face)).as("the client's threads busy with calls").isZero();
        }
        assertThat(api.requests(USER)).hasSize(STORM);

        api.script(USER, ScriptedApi.ok("user"));
        timer.flow();
        for (Running call : calls) {
            assertThat(call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(new Reply(200, "user"));
        }
        assertThat(api.requests(USER)).hasSize(2 * STORM);
    }

    /**
     * The client's threads busy with calls once the last call to start its wait has left the client's
     * thread (its wait is registered a moment before its thread returns to the client); a call whose
     * wait holds a thread keeps it busy, and fails the case.
     */
    private static int awaitNoBusyClientThread(ClientFace face) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int busy = face.busyClientThreads().getAsInt();
        while (busy != 0 && System.nanoTime() < end) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            busy = face.busyClientThreads().getAsInt();
        }
        return busy;
    }

    /**
     * The threads parked in the agent's code once those that were still on their way out of it (the
     * last calls to start their wait) are gone; a thread a wait holds stays, and fails the case.
     */
    private static List<String> awaitNoThreadParkedInTheAgent() {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> parked = ParkedThreads.inAgentCode();
        while (!parked.isEmpty() && System.nanoTime() < end) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            parked = ParkedThreads.inAgentCode();
        }
        return parked;
    }

    @Test
    void cancellingACallWhileItWaitsOutTheRateLimitEndsItAndSendsNothingMore() throws Exception {
        requireCapability(Capability.CANCEL);
        api.script(USER, ScriptedApi.rateLimited());
        timer.hold();

        Running call = face(false).start(Call.get(url(USER)));
        assertThat(timer.awaitWaiting(1, PATIENCE)).as("the wait began").isTrue();
        call.cancel();

        assertThat(call.outcome()).as("the app's call ended").failsWithin(PATIENCE);
        assertThat(timer.awaitNoneWaiting(PATIENCE)).as("the wait was given up").isTrue();
        assertThat(timer.givenUp()).isEqualTo(1);
        timer.flow();
        assertThat(api.requests(USER)).hasSize(1);
    }
}
