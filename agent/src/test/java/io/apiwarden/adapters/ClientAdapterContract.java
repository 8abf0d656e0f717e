package io.apiwarden.adapters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import io.apiwarden.adapters.ClientFace.Body;
import io.apiwarden.adapters.ClientFace.Call;
import io.apiwarden.adapters.ClientFace.Reply;
import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.adapters.ScriptedApi.Arrival;
import io.apiwarden.core.Warden;
import io.apiwarden.testing.DpopServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What every client adapter promises, whatever the client: the bearer only in scope, one refresh and
 * one resend after an invalid token, the back-off of the global rate limit to the count and the delay,
 * no token across a redirect out of scope, waits that hold no thread, cancel. Each way of calling
 * each client (a {@link ClientFace}) has a subclass that makes its face for a client managed in library
 * mode; {@code io.apiwarden.it.ClientAdapterContractAgentIT} runs the same cases through the same faces
 * on plain clients, in a JVM started with the agent ({@link #management()}).
 *
 * <p>The cases hold both ways: in library mode the agent's waits are on the test's time ({@link
 * io.apiwarden.testing.FakeTimer}), with the agent they are on its own timer. So a case asserts on what the server
 * received, and on when it arrived on the time the waits are on ("nothing is sent before a wait ends"
 * as a gap between two arrivals at least as long as the wait), never on how long anything took.
 *
 * <p>A face that cannot do what a case needs says why in {@link #cannot}; the case then reports that
 * reason instead of passing, or asserts what the adapter does instead.
 */
// "this-escape" (JDK 21 and later): management() is called from a field initializer; its overrides choose a
// manager without reading any state of their own, so nothing sees a half-built subclass.
@SuppressWarnings("this-escape")
public abstract class ClientAdapterContract {
    /**
     * The cases that need properties of their own ({@link #TUNED_PROPERTIES}): with the agent, a JVM started
     * with them runs these cases, and one without them the others.
     */
    public static final String TUNED = "tuned";
    /**
     * The DPoP cases: with the agent, they need a JVM started with {@link #DPOP_PROPERTIES}
     * ({@code io.apiwarden.it.ContractWithTheAgentDpopIT}).
     */
    public static final String DPOP = "dpop";
    /** The properties of the {@link #DPOP} cases, beside the suite's. */
    public static final Map<String, String> DPOP_PROPERTIES = Map.of("apiwarden.dpop.enabled", "true");
    /** The properties of the {@link #TUNED} cases, beside the suite's. */
    public static final Map<String, String> TUNED_PROPERTIES = Map.of(
            // Far shorter than the slow error body of its case, which trickles for ~0.2 s.
            "apiwarden.classify.max-body-wait", "30ms",
            // The storm's waits as long as they were: 40+80+160+320+640 ms, so that the threads are looked at
            // many times while the calls wait (with waits of 20 to 320 ms, a machine at load 9 looked only 2 to
            // 4 times).
            "apiwarden.backoff.initial-delay", "40ms",
            // Every call of the storm is sent and waits its own back-off, so the waits can be counted.
            "apiwarden.throttle.gate.enabled", "false");
    /** The suite's properties, beside the API's and the tokens. */
    public static final Map<String, String> SUITE_PROPERTIES = Map.of(
            // Short, so that the five waits of a back-off take 620 ms on real time (20+40+80+160+320 ms): with the
            // agent, every face waits them out twice (the back-off and the cancel cases), 21 s for 17 faces.
            "apiwarden.backoff.initial-delay", "20ms",
            // The most the budget allows (docs/configuration.md): the storm resends up to five times a call, and
            // with the agent one JVM runs every case; the budget has tests of its own (RetryBudgetTest).
            "apiwarden.throttle.retry-budget.min-per-second", "1000");

    private static final Duration INITIAL_DELAY = Duration.ofMillis(20);
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final String USER = "/api/v1/user";
    private static final int STORM = 50;
    /**
     * How long the storm's calls are refused from the first one on: shorter than a call's whole back-off
     * with the {@link #TUNED_PROPERTIES} (1,240 ms, which no wait may outlast, a server's Retry-After included), so that each call gets through
     * (at its fifth resend, 1,240 ms after the first refusal); long enough that a thread held by the waits
     * is seen held, and the threads looked at many times, on real time on a busy machine (with 300 ms in
     * waits of 20 to 320 ms, a machine at load 9 looked only 2 to 4 times).
     */
    private static final Duration STORM_WINDOW = Duration.ofSeconds(1);
    /** The back-off's waits before the last, the longest (320 ms): long enough, on real time, to cancel a call while it waits. */
    private static final int WAITS_BEFORE_THE_LAST = 4;

    /** What a case needs that not every client can do. */
    protected enum Capability {
        /** Following a redirect itself. */
        FOLLOW_REDIRECTS,
        /** Sending a body that its client writes once again, from what the agent recorded of it. */
        RESEND_STREAMED_BODY,
        /** Cancelling a call while it waits. */
        CANCEL
    }

    private final Management managed = management();
    private final ScriptedApi api = new ScriptedApi(managed::nanoTime);
    private final MockWebServer elsewhere = new MockWebServer();
    private final ScriptedApi elsewhereApi = new ScriptedApi();
    private final List<ClientFace> faces = new ArrayList<>();
    private MockWebServer server;
    private int refreshesBefore;

    /**
     * The face under test, following redirects or not, for a client managed by {@code warden} in library
     * mode, whose waits are to go on {@code warden.scheduler()}; {@code warden} is null when the agent
     * manages the client: the face is then the plain client, as an app builds it.
     */
    protected abstract ClientFace face(Warden warden, boolean followRedirects) throws Exception;

    /** Who manages the cases' clients: a warden of each case's own, in library mode, unless a subclass says otherwise. */
    protected Management management() {
        return new LibraryManagement();
    }

    /** Why this face cannot do what {@code capability} asks, or null when it can. */
    protected String cannot(Capability capability) {
        return null;
    }

    @BeforeEach
    void startServers() throws Exception {
        server = managed.apiServer(api);
        elsewhere.setDispatcher(elsewhereApi);
        elsewhere.start(0);
        refreshesBefore = managed.refreshes();
    }

    @AfterEach
    void stopAll() {
        faces.forEach(ClientFace::close);
        managed.close();
        elsewhere.close();
    }

    /** A face of a client managed with the suite's properties and {@code caseProperties}. */
    private ClientFace face(boolean followRedirects, Map<String, String> caseProperties) throws Exception {
        Map<String, String> properties = new HashMap<>(SUITE_PROPERTIES);
        properties.putAll(caseProperties);
        ClientFace face = face(managed.warden(url("/api/v1"), properties), followRedirects);
        faces.add(face);
        return face;
    }

    private ClientFace face(boolean followRedirects) throws Exception {
        return face(followRedirects, Map.of());
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

    /** Token refreshes in this case. */
    private int refreshes() {
        return managed.refreshes() - refreshesBefore;
    }

    /** Two requests: the first with the token there was, the resend with the one the one refresh issued. */
    private void assertRefreshedOnceAndResent(List<Arrival> requests) {
        assertThat(requests).hasSize(2);
        assertThat(requests.get(0).authorization()).startsWith("Bearer ");
        assertThat(requests.get(1).authorization())
                .startsWith("Bearer ")
                .isNotEqualTo(requests.get(0).authorization());
        assertThat(refreshes()).isEqualTo(1);
    }

    /** Each of {@code requests} after the first came at least the back-off's wait after the one before it. */
    private static void assertSentOnlyOnceEachWaitEnded(List<Arrival> requests, int waits) {
        for (int i = 1; i <= waits; i++) {
            Duration gap = Duration.ofNanos(
                    requests.get(i).nanos() - requests.get(i - 1).nanos());
            // A wait may end late (on a busy machine, on real time), never early.
            assertThat(gap)
                    .as("the wait before resend %d", i)
                    .isGreaterThanOrEqualTo(INITIAL_DELAY.multipliedBy(1L << (i - 1)));
        }
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

        assertThat(api.requests(USER))
                .singleElement()
                .extracting(Arrival::authorization)
                .asString()
                .startsWith("Bearer ");
        assertThat(api.requests("/api/v1beta/user"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
        assertThat(api.requests("/other"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
        assertThat(elsewhereApi.requests("/api/v1/port"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
        assertThat(api.requests("/api/v1/host"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
        assertThat(refreshes()).isZero();
    }

    // ---------------------------------------------------------------------------------------------
    // One refresh, one resend.

    @Test
    void anInvalidTokenIsRefreshedOnceAndTheCallResentWithTheNewBearer() throws Exception {
        api.script(USER, ScriptedApi.invalidToken(), ScriptedApi.ok("user"));

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "user"));

        assertRefreshedOnceAndResent(api.requests(USER));
    }

    @Test
    void anInvalidTokenAfterTheRefreshReachesTheAppWithoutAnotherRefresh() throws Exception {
        api.script(USER, ScriptedApi.invalidToken());

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(401, ScriptedApi.INVALID_TOKEN_BODY));

        assertRefreshedOnceAndResent(api.requests(USER));
    }

    @Test
    void aRepeatableBodyIsResentWholeAfterTheRefresh() throws Exception {
        api.script("/api/v1/items", ScriptedApi.invalidToken(), ScriptedApi.ok("made"));

        Reply reply = face(false).call(Call.post(url("/api/v1/items"), "{\"name\":\"a\"}", Body.REPEATABLE));

        assertThat(reply).isEqualTo(new Reply(200, "made"));
        assertThat(api.requests("/api/v1/items"))
                .extracting(Arrival::body)
                .containsExactly("{\"name\":\"a\"}", "{\"name\":\"a\"}");
        assertRefreshedOnceAndResent(api.requests("/api/v1/items"));
    }

    @Test
    void aStreamedBodyIsRecordedAsSentAndResentWholeAfterTheRefresh() throws Exception {
        api.script("/api/v1/items", ScriptedApi.invalidToken(), ScriptedApi.ok("made"));
        String body = "{\"items\":\"" + "x".repeat(20_000) + "\"}";

        Reply reply = face(false).call(Call.post(url("/api/v1/items"), body, Body.STREAMED));

        if (cannot(Capability.RESEND_STREAMED_BODY) == null) {
            assertThat(reply).isEqualTo(new Reply(200, "made"));
            assertThat(api.requests("/api/v1/items")).extracting(Arrival::body).containsExactly(body, body);
            assertRefreshedOnceAndResent(api.requests("/api/v1/items"));
        } else {
            // Not resent: the app gets the API's answer to the one attempt, as without the agent.
            assertThat(reply).isEqualTo(new Reply(401, ScriptedApi.INVALID_TOKEN_BODY));
            assertThat(api.requests("/api/v1/items")).extracting(Arrival::body).containsExactly(body);
            assertThat(refreshes()).isZero();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // An error body held to classify it, for a bounded time.

    @Test
    @Tag(TUNED)
    void anErrorBodySlowerThanTheBoundGoesToTheAppAsItIsJudgedByItsStatus() throws Exception {
        // Only the body's end says invalid_token, and the body comes a byte at a time: ~0.2 s in all, far past
        // the bound. Waited for whole, it would be refreshed and resent; past the bound it is the app's 403.
        String body = "{\"detail\":\"nope\",\"error\":\"invalid_token\"}";
        api.script(
                USER,
                () -> new MockResponse.Builder()
                        .code(403)
                        .body(body)
                        .throttleBody(1, 5, TimeUnit.MILLISECONDS)
                        .build(),
                ScriptedApi.ok("user"));

        Reply reply = face(false, TUNED_PROPERTIES).call(Call.get(url(USER)));

        assertThat(reply).isEqualTo(new Reply(403, body));
        assertThat(api.requests(USER)).hasSize(1);
        assertThat(refreshes()).isZero();
    }

    // ---------------------------------------------------------------------------------------------
    // The global rate limit's back-off.

    @Test
    void theRateLimitIsWaitedOutMaxRetriesTimesWithDelaysDoublingAndNothingGoesBeforeAWaitEnds() throws Exception {
        api.script(USER, ScriptedApi.rateLimited());
        ClientFace face = face(false);

        // A client that retries a 429 itself does so once the agent gave up, as without the agent; its
        // retry is the same call, with no back-off left, and may wait at the rate-limit gate.
        assertThat(face.call(Call.get(url(USER)))).isEqualTo(new Reply(429, ScriptedApi.RATE_LIMIT_BODY));

        List<Arrival> limited = api.requests(USER);
        assertThat(limited).hasSize(6 + face.ownRetriesOfARateLimit());
        assertSentOnlyOnceEachWaitEnded(limited, 5);
    }

    @Test
    void aRateLimitedCallSucceedsOnceTheLimitLifts() throws Exception {
        api.script(USER, ScriptedApi.rateLimited(), ScriptedApi.rateLimited(), ScriptedApi.ok("user"));

        assertThat(face(false).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "user"));

        List<Arrival> sent = api.requests(USER);
        assertThat(sent)
                .hasSize(3)
                .extracting(Arrival::authorization)
                .containsOnly(sent.get(0).authorization());
        assertSentOnlyOnceEachWaitEnded(sent, 2);
    }

    // ---------------------------------------------------------------------------------------------
    // Redirects.

    @Test
    void aRedirectToAnotherOriginNeverCarriesTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, elsewhere.url("/landing").toString()));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /landing"));

        assertThat(api.requests(USER))
                .singleElement()
                .extracting(Arrival::authorization)
                .asString()
                .startsWith("Bearer ");
        assertThat(elsewhereApi.requests("/landing"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
    }

    @Test
    void aRedirectOutsideTheBasePathNeverCarriesTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, "/other/landing"));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /other/landing"));

        assertThat(api.requests(USER))
                .singleElement()
                .extracting(Arrival::authorization)
                .asString()
                .startsWith("Bearer ");
        assertThat(api.requests("/other/landing"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNull();
    }

    @Test
    void aRedirectIntoAnotherApisNestedBaseNeverCarriesThisApisBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, "/api/v1/admin/landing"));

        // A second API whose base lies under the suite's: /api/v1/admin is its, the rest of /api/v1 the suite's.
        ClientFace face = face(
                true,
                Map.of(
                        "apiwarden.api.admin.base-url",
                        url("/api/v1/admin"),
                        "apiwarden.api.admin.access-token",
                        "contract-admin-access-0"));
        assertThat(face.call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /api/v1/admin/landing"));

        assertThat(api.requests(USER))
                .singleElement()
                .extracting(Arrival::authorization)
                .asString()
                .startsWith("Bearer ");
        // Never the suite API's token. A hop of the call the agent sees goes with none; a client that sends each
        // hop as a request of its own (Apache HttpClient, Ktor, google-http with the agent) sends it to the admin
        // API as any request there, with that API's own token (docs/configuration.md, Several APIs).
        assertThat(api.requests("/api/v1/admin/landing"))
                .singleElement()
                .extracting(Arrival::authorization)
                .isNotEqualTo(api.requests(USER).get(0).authorization())
                .isIn(null, "Bearer contract-admin-access-0");
    }

    @Test
    void aRedirectWithinTheApiKeepsTheBearer() throws Exception {
        requireCapability(Capability.FOLLOW_REDIRECTS);
        api.script(USER, ScriptedApi.redirect(302, "/api/v1/users/me"));

        assertThat(face(true).call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok /api/v1/users/me"));

        assertThat(api.requests("/api/v1/users/me"))
                .singleElement()
                .extracting(Arrival::authorization)
                .asString()
                .isEqualTo(api.requests(USER).get(0).authorization())
                .startsWith("Bearer ");
    }

    // ---------------------------------------------------------------------------------------------
    // Waits that hold no thread, and cancel.

    @Test
    @Tag(TUNED)
    void asyncCallsWaitingOutTheRateLimitHoldNoThread() throws Exception {
        // The gate is off so that every call is sent and waits its own back-off: then the waits can be
        // counted. Calls waiting at the gate hold no thread either (ThrottledCallsTest).
        ClientFace face = face(false, TUNED_PROPERTIES);
        if (!face.async()) {
            abort("a blocking call waits on the app's own thread, which the app gave it: nothing to hold");
        }
        api.rateLimitWindow(USER, STORM_WINDOW);
        managed.holdWaits();

        List<Running> calls = new ArrayList<>();
        for (int i = 0; i < STORM; i++) {
            calls.add(face.start(Call.get(url(USER))));
        }
        assertThat(api.awaitRequests(USER, STORM, PATIENCE))
                .as("all %d calls sent", STORM)
                .isTrue();
        managed.assertNoThreadHeldWhileWaiting(face, calls);

        for (Running call : calls) {
            assertThat(call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isEqualTo(new Reply(200, "ok " + USER));
        }
    }

    @Test
    void cancellingACallWhileItWaitsOutTheRateLimitEndsItAndSendsNothingMore() throws Exception {
        requireCapability(Capability.CANCEL);
        api.script(USER, ScriptedApi.rateLimited());
        managed.holdWaits();

        Running call = face(false).start(Call.get(url(USER)));
        for (int sent = 1; sent <= WAITS_BEFORE_THE_LAST; sent++) {
            assertThat(managed.awaitWaitBegun(api, USER, sent, PATIENCE))
                    .as("wait %d began", sent)
                    .isTrue();
            managed.endHeldWaits();
        }
        assertThat(managed.awaitWaitBegun(api, USER, WAITS_BEFORE_THE_LAST + 1, PATIENCE))
                .as("the last wait began")
                .isTrue();
        call.cancel();

        assertThat(call.outcome()).as("the app's call ended").failsWithin(PATIENCE);
        managed.assertWaitGivenUp(INITIAL_DELAY.multipliedBy(1L << WAITS_BEFORE_THE_LAST));
        assertThat(api.requests(USER)).hasSize(WAITS_BEFORE_THE_LAST + 1);
    }

    // ---------------------------------------------------------------------------------------------
    // DPoP (RFC 9449): a proof on every token request and every attempt, against a server that verifies them.

    /** A face with DPoP on, its API and token endpoint verifying proofs ({@link DpopServer}). */
    private ClientFace dpopFace(DpopServer dpop) throws Exception {
        ClientFace face = face(false, DPOP_PROPERTIES);
        server.setDispatcher(dpop);
        return face;
    }

    /** Proofs are dated on real time both ways: DPoP's cases wait for nothing, so their warden is on real time. */
    private static DpopServer dpopServer() {
        return new DpopServer(Instant::now);
    }

    /**
     * A nonce no server gave before: the agent keeps the latest nonce each server gave, and with the agent one JVM
     * runs every face's cases against the one port, so a nonce named once would be known to the next face.
     */
    private static String freshNonce(String name) {
        return name + "-" + UUID.randomUUID();
    }

    @Test
    @Tag(DPOP)
    void dpopConcurrentCallsAfterARevocationShareOneTokenRequestAndEveryProofIsNew() throws Exception {
        DpopServer dpop = dpopServer();
        ClientFace face = dpopFace(dpop);
        assertThat(face.call(Call.get(url(USER))))
                .as(() -> "refused for " + dpop.refusals() + ", token requests " + dpop.tokenRequests()
                        + ", API requests " + dpop.apiRequests())
                .isEqualTo(new Reply(200, "ok " + USER));
        int tokenRequestsBefore = dpop.tokenRequests();
        dpop.revokeAll();

        // Fifty on every face, as the issue asks: a blocking face's calls each hold a thread of the app's.
        List<Running> calls = new ArrayList<>();
        for (int i = 0; i < STORM; i++) {
            calls.add(face.start(Call.get(url(USER))));
        }
        for (Running call : calls) {
            assertThat(call.outcome().get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isEqualTo(new Reply(200, "ok " + USER));
        }

        assertThat(dpop.tokenRequests() - tokenRequestsBefore).isEqualTo(1);
        assertThat(dpop.proofs()).doesNotHaveDuplicates();
        assertThat(dpop.replays()).isZero();
        assertThat(dpop.refusals()).isEmpty();
    }

    @Test
    @Tag(DPOP)
    void dpopNoncesDemandedByTheTokenEndpointAndTheApiAreAnsweredWithOneResendEachAndKept() throws Exception {
        DpopServer dpop =
                dpopServer().demandTokenNonce(freshNonce("token-nonce")).demandApiNonce(freshNonce("api-nonce"));
        ClientFace face = dpopFace(dpop);

        // The API asks for its nonce (one resend), then refuses the token held, which this server did not issue
        // (one refresh, whose token request is asked for the token endpoint's nonce: one resend), then answers.
        assertThat(face.call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok " + USER));
        assertThat(face.call(Call.get(url(USER)))).isEqualTo(new Reply(200, "ok " + USER));

        assertThat(dpop.apiNonceDemands()).isEqualTo(1);
        assertThat(dpop.tokenNonceDemands()).isEqualTo(1);
        assertThat(dpop.tokenRequests()).isEqualTo(2);
        assertThat(dpop.apiRequests())
                .as("3 attempts for the first call, 1 for the second")
                .isEqualTo(4);
        assertThat(dpop.refusals()).isEmpty();
        assertThat(dpop.replays()).isZero();
    }

    @Test
    @Tag(DPOP)
    void dpopAnApiThatAsksForANonceAgainAndAgainGetsOneResendAndTheAppItsAnswer() throws Exception {
        DpopServer dpop = dpopServer();
        ClientFace face = dpopFace(dpop);
        assertThat(face.call(Call.get(url(USER))))
                .as(() -> "refused for " + dpop.refusals() + ", token requests " + dpop.tokenRequests()
                        + ", API requests " + dpop.apiRequests())
                .isEqualTo(new Reply(200, "ok " + USER));
        int before = dpop.apiRequests();
        // A nonce the agent can never send: each new one is demanded once it has been used.
        dpop.demandApiNonce(freshNonce("rotating"));
        dpop.giveNoncesNeverTaken();

        assertThat(face.call(Call.get(url(USER))).status()).isEqualTo(401);

        assertThat(dpop.apiRequests() - before)
                .as("the call and its one nonce resend")
                .isEqualTo(2);
        assertThat(dpop.replays()).isZero();
    }
}
