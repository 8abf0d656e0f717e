package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.ClientFace.Running;
import io.apiwarden.adapters.Management;
import io.apiwarden.adapters.ParkedThreads;
import io.apiwarden.adapters.ScriptedApi;
import io.apiwarden.core.Warden;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * The agent this JVM was started with manages the contract's clients ({@link ContractJvm}: {@code -javaagent}
 * and the {@code apiwarden.*} properties on its command line). The agent read the API's and the token
 * service's URL at start, so the API's server is one for the whole JVM, on the port it was given
 * ({@code apiwarden.it.contract-port}); each case puts its own script behind it.
 * The token service behind it issues a token of its own on each refresh. Waits are on the agent's own timer,
 * on real time: the test cannot hold them, only look while they last.
 */
final class AgentManagement implements Management {
    /** The port the agent was told the API is on. */
    static final String PORT_PROPERTY = "apiwarden.it.contract-port";
    /**
     * How long a thread must stay parked at one frame in the agent's code to count as held by a wait: longer
     * than the agent's code parks a thread for a moment (a lock of the JDK's timer, a class being
     * initialised), shorter than the storm's longer waits (the calls wait 1,240 ms in all, in waits of 40 to
     * 640 ms with a resend of a millisecond between: samples land in the waits).
     */
    private static final Duration HELD = Duration.ofMillis(200);
    /** Between two looks at the threads while the storm's calls wait. */
    private static final Duration SAMPLE_EVERY = Duration.ofMillis(20);
    /** Enough looks to have seen a thread held for {@link #HELD}. */
    private static final int MIN_SAMPLES = 5;
    /** Past the end of a wait, for a resend that should not come to have come: a busy machine's lateness. */
    private static final Duration LATE = Duration.ofMillis(300);

    private static final Duration PATIENCE = Duration.ofSeconds(20);
    /**
     * Within the API, so the agent manages a call to it; answered by {@link Routing} itself, so no case's
     * script sees it, nor counts it, and its 200 triggers no token refresh.
     */
    private static final String OPEN_THE_GATE = "/api/v1/contract-case-starts";
    /** Built here, so the agent weaves it as any app's client: its call goes through the agent's gate. */
    private static final HttpClient MANAGED = HttpClient.newHttpClient();

    private static final FakeOAuthApi TOKENS = new FakeOAuthApi();
    private static final Routing ROUTING = new Routing();
    private static final MockWebServer SERVER = startServer();

    /** The token service at its path, the case's API everywhere else. */
    private static final class Routing extends Dispatcher {
        volatile Dispatcher api;
        /**
         * Whether the latest call to {@link #OPEN_THE_GATE} carried the agent's token: a bearer, or with DPoP on
         * the token as {@code DPoP} and one proof (unchecked: the gate is all this call is for).
         */
        volatile boolean openerManaged;

        @Override
        public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
            String path = request.getUrl().encodedPath();
            if (path.equals(OPEN_THE_GATE)) {
                String authorization = request.getHeaders().get("Authorization");
                openerManaged = authorization != null
                        && (authorization.startsWith("Bearer ")
                                || (authorization.startsWith("DPoP ")
                                        && request.getHeaders().values("DPoP").size() == 1));
                return new MockResponse.Builder().code(200).build();
            }
            return path.startsWith("/auth/") ? TOKENS.dispatch(request) : api.dispatch(request);
        }
    }

    private static MockWebServer startServer() {
        String port = System.getProperty(PORT_PROPERTY);
        if (port == null || System.getProperty("apiwarden.base-url") == null) {
            throw new IllegalStateException("run in a JVM started with the agent and " + PORT_PROPERTY
                    + " (ContractJvm starts one: run ContractWithTheAgentIT)");
        }
        // Each refresh issues a token of its own, so a resend can be told to carry a new one.
        TOKENS.revocable = true;
        MockWebServer server = new MockWebServer();
        server.setDispatcher(ROUTING);
        try {
            server.start(Integer.parseInt(port));
        } catch (IOException e) {
            throw new UncheckedIOException("the port the agent was told the API is on is taken: " + port, e);
        }
        return server;
    }

    /** Called as each case starts: it starts with the agent's gate open, as with a warden of its own in library mode. */
    @Override
    public MockWebServer apiServer(Dispatcher api) throws IOException, InterruptedException {
        ROUTING.api = api;
        // A DPoP case puts its own verifying server (io.apiwarden.testing.DpopServer) in front of the whole port,
        // token endpoint and API, as the agent knows them both here: each case starts behind the routing again.
        SERVER.setDispatcher(ROUTING);
        openTheGate();
        return SERVER;
    }

    /**
     * The agent's gate is the JVM's: a case that ended refused (its window still on) or cancelled leaves it
     * closed, and the next case's first call would wait there, that wait spent from its whole back-off
     * (620 ms), and find its own resends cut short. An answer to a call through the gate opens it
     * ({@code ThrottleGate.answered}): a success after the window, or for a call that waited it out.
     */
    private static void openTheGate() throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(SERVER.url(OPEN_THE_GATE).toString()))
                .timeout(PATIENCE)
                .build();
        int status =
                MANAGED.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        assertThat(status)
                .as("the answer that opens the agent's gate before the case")
                .isEqualTo(200);
        assertThat(ROUTING.openerManaged)
                .as("the call that opens the gate went through the agent")
                .isTrue();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Warden warden(String apiBaseUrl, Map<String, String> properties) {
        Map<String, String> missing = new TreeMap<>();
        properties.forEach((key, value) -> {
            if (!value.equals(System.getProperty(key))) {
                missing.put(key, value);
            }
        });
        if (!missing.isEmpty()) {
            abort("needs the agent started with " + missing
                    + ": another execution of Failsafe (agent/pom.xml) runs it");
        }
        assertThat(apiBaseUrl).as("the API the agent was told of").isEqualTo(System.getProperty("apiwarden.base-url"));
        return null;
    }

    @Override
    public int refreshes() {
        return TOKENS.tokenRequests.size();
    }

    @Override
    public void holdWaits() {
        // Real waits: each ends on its own.
    }

    @Override
    public boolean awaitWaitBegun(ScriptedApi api, String path, int sent, Duration patience)
            throws InterruptedException {
        // The server has answered: the agent's wait begins as the answer comes in.
        return api.awaitRequests(path, sent, patience);
    }

    @Override
    public void endHeldWaits() {
        // None held.
    }

    @Override
    public void assertNoThreadHeldWhileWaiting(ClientFace face, List<Running> calls) throws Exception {
        ParkedThreads.Watch watch = new ParkedThreads.Watch(HELD);
        long end = System.nanoTime() + PATIENCE.toNanos();
        while (calls.stream().anyMatch(c -> !c.outcome().isDone()) && System.nanoTime() < end) {
            watch.sample();
            TimeUnit.NANOSECONDS.sleep(SAMPLE_EVERY.toNanos());
        }
        assertThat(watch.samples())
                .as("looks at the threads while the calls waited")
                .isGreaterThanOrEqualTo(MIN_SAMPLES);
        assertThat(watch.held())
                .as("threads the agent's code kept parked while %d calls waited", calls.size())
                .isEmpty();
    }

    @Override
    public void assertWaitGivenUp(Duration asked) throws InterruptedException {
        // Nothing to look at but the server: a resend the cancel failed to stop would come once the wait ended.
        TimeUnit.NANOSECONDS.sleep(asked.plus(LATE).toNanos());
    }

    @Override
    public void close() {
        // The server serves every case of the JVM: the agent knows no other.
    }
}
