package io.apiwarden.it;

import io.apiwarden.adapters.ScriptedApi;
import io.apiwarden.adapters.ScriptedApi.Arrival;
import io.apiwarden.it.apps.AdapterSuiteApp;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adapter suite with the agent attached: one app JVM per client runs the cases of
 * {@code ClientAdapterContract} through each of the client's faces (the same face code), on real time,
 * and the server says what it received. The in-process contract checks the delays and waits on the
 * test's time; here the same behaviour is checked through the agent's own wiring and timer.
 */
class ClientAdapterAgentIT {
    private static final String STALE_TOKEN = "stale-access-5u17e";
    private static final String REFRESH_TOKEN = "suite-refresh-0a9";
    /**
     * The back-off's first wait: short, yet with a whole back-off (40 + 80 + 160 + 320 + 640 = 1240 ms)
     * longer than the 1 s the storm's and the cancel case's {@code Retry-After} ask. A call waits no
     * longer than its whole back-off: at 20 ms (620 ms) both would be answered 429 at once, and
     * neither case would wait at all. A {@code Retry-After} says whole seconds, and a shorter window
     * without one costs each storm call several resends, more than the retry budget allows.
     */
    private static final long INITIAL_DELAY_MILLIS = 40;
    /** The storm's window, within one call's whole back-off: every call ends 200. */
    private static final Duration STORM_WINDOW = Duration.ofSeconds(1);

    private final FakeOAuthApi tokens = new FakeOAuthApi();
    private final ScriptedApi api = new ScriptedApi("/auth/token", tokens);
    private final ScriptedApi elsewhereApi = new ScriptedApi();
    private final MockWebServer server = new MockWebServer();
    private final MockWebServer elsewhere = new MockWebServer();

    @BeforeEach
    void start() throws Exception {
        // Each refresh issues a token of its own, so a resend can be told to carry a new one.
        tokens.revocable = true;
        server.setDispatcher(api);
        server.start(0);
        elsewhere.setDispatcher(elsewhereApi);
        elsewhere.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
        elsewhere.close();
    }

    @Test
    void jdkSendAndSendAsync() throws Exception {
        runSuite("jdk", null, List.of("send", "send-async"), List.of("send-async"));
    }

    @Test
    void okHttpExecuteAndEnqueue() throws Exception {
        runSuite("okhttp", "okhttp5", List.of("execute", "enqueue"), List.of("enqueue"));
    }

    @Test
    void apacheHttpClientClassicAndAsync() throws Exception {
        runSuite("apache", "httpclient5", List.of("classic", "async"), List.of("async"));
    }

    @Test
    void reactorNetty() throws Exception {
        runSuite("reactor-netty", "reactor-netty", List.of("subscribe"), List.of("subscribe"));
    }

    private void runSuite(String client, String libs, List<String> faces, List<String> asyncFaces) throws Exception {
        for (String face : faces) {
            script(face);
        }
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.base-url", server.url("/api/v1").toString())
                .property("apiwarden.auth-url", server.url("/auth").toString())
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                .property("apiwarden.backoff.initial-delay", INITIAL_DELAY_MILLIS + "ms");
        if (libs != null) {
            try (Stream<Path> jars = Files.list(AgentJvm.itLib(libs))) {
                jars.sorted().forEach(jvm::classPath);
            }
        }

        AgentJvm.Result r = jvm.run(AdapterSuiteApp.class, client, base(server), base(elsewhere), otherHostBase());

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains("could not") || l.contains("WARN"));
        assertThat(r.all()).doesNotContain(STALE_TOKEN, REFRESH_TOKEN, FakeOAuthApi.ISSUED_TOKEN);
        int refreshes = 0;
        for (String face : faces) {
            refreshes += checkFace(face, r, asyncFaces.contains(face), client.equals("reactor-netty"),
                    client.equals("apache") ? 1 : 0);
        }
        assertThat(tokens.tokenRequests).as("one refresh per case that refreshes").hasSize(refreshes);
    }

    /** What the server answers each case of {@code face}. */
    private void script(String face) {
        String base = "/api/v1/" + face;
        api.script(base + "/refresh", ScriptedApi.invalidToken(), ScriptedApi.ok("user"));
        api.script(base + "/refused", ScriptedApi.invalidToken());
        api.script(base + "/streamed", ScriptedApi.invalidToken(), ScriptedApi.ok("made"));
        api.script(base + "/redirect-away", ScriptedApi.redirect(302, elsewhere.url("/landing/" + face).toString()));
        api.script(base + "/redirect-out", ScriptedApi.redirect(302, "/other/landing/" + face));
        api.script(base + "/cancel", ScriptedApi.rateLimited(1));
        api.rateLimitWindow(base + "/storm", STORM_WINDOW);
        api.script(base + "/backoff", ScriptedApi.rateLimited());
    }

    /** Checks every case of {@code face}; returns how many of them refreshed the token. */
    private int checkFace(String face, AgentJvm.Result r, boolean async, boolean streamedNotResent, int ownRetriesOf429) {
        String base = "/api/v1/" + face;
        List<String> lines = r.stdout.stream().filter(l -> l.startsWith("CASE " + face + " ")).map(l -> l.substring(6 + face.length()))
                .toList();
        String context = face + "\n" + r;

        assertThat(lines).as(context).contains("bearer 200 200 200 200 200");
        assertThat(single(base + "/bearer").authorization()).as(context).startsWith("Bearer ");
        assertThat(single("/api/v1beta/" + face + "/bearer").authorization()).as(context).isNull();
        assertThat(single("/other/" + face + "/bearer").authorization()).as(context).isNull();
        assertThat(elsewhereApi.requests(base + "/bearer")).as(context).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(single(base + "/bearer-host").authorization()).as(context).isNull();

        assertThat(lines).as(context).contains("refresh 200 user");
        assertRefreshedOnce(api.requests(base + "/refresh"), context);
        assertThat(lines).as(context).contains("refused 401 " + ScriptedApi.INVALID_TOKEN_BODY);
        assertRefreshedOnce(api.requests(base + "/refused"), context);

        List<Arrival> streamed = api.requests(base + "/streamed");
        if (streamedNotResent) {
            assertThat(lines).as(context).contains("streamed 401 " + ScriptedApi.INVALID_TOKEN_BODY);
            assertThat(streamed).as(context).hasSize(1);
        } else {
            assertThat(lines).as(context).contains("streamed 200 made");
            assertRefreshedOnce(streamed, context);
            assertThat(streamed).extracting(Arrival::body).as(context).containsOnly("{\"streamed\":\"" + face + "\"}");
        }

        assertThat(lines).as(context).contains("redirect-away 200 ok /landing/" + face, "redirect-out 200 ok /other/landing/" + face);
        assertThat(single(base + "/redirect-away").authorization()).as(context).startsWith("Bearer ");
        assertThat(elsewhereApi.requests("/landing/" + face)).as(context).singleElement().extracting(Arrival::authorization).isNull();
        assertThat(single("/other/landing/" + face).authorization()).as(context).isNull();

        assertThat(lines).as(context).anyMatch(l -> l.matches("cancel ended=(failed|reply-429) fast=true"));
        assertThat(api.requests(base + "/cancel")).as(context + "\nnothing sent after the cancel").hasSize(1);

        if (async) {
            assertThat(lines).as(context).anyMatch(l -> l.startsWith("storm {200=50} samples=") && l.endsWith(" held=[]"));
            int samples = Integer.parseInt(lines.stream().filter(l -> l.startsWith("storm ")).findFirst().orElseThrow()
                    .replaceAll(".* samples=(\\d+) .*", "$1"));
            assertThat(samples).as(context + "\nthreads were looked at while the calls waited").isGreaterThanOrEqualTo(5);
        }

        assertThat(lines).as(context).contains("backoff 429 " + ScriptedApi.RATE_LIMIT_BODY);
        List<Arrival> limited = api.requests(base + "/backoff");
        assertThat(limited).as(context).hasSize(6 + ownRetriesOf429);
        for (int i = 1; i <= 5; i++) {
            long gapMillis = (limited.get(i).nanos() - limited.get(i - 1).nanos()) / 1_000_000;
            // A wait may end late on a busy machine, never early.
            assertThat(gapMillis).as(context + "\nthe wait before resend %d", i).isGreaterThanOrEqualTo(INITIAL_DELAY_MILLIS << (i - 1));
        }
        return streamedNotResent ? 2 : 3;
    }

    private Arrival single(String path) {
        List<Arrival> requests = api.requests(path);
        assertThat(requests).as(path).hasSize(1);
        return requests.get(0);
    }

    /** Two requests: the first with the token there was, the resend with a new one. */
    private static void assertRefreshedOnce(List<Arrival> requests, String context) {
        assertThat(requests).as(context).hasSize(2);
        assertThat(requests.get(1).authorization()).as(context).startsWith("Bearer " + FakeOAuthApi.ISSUED_TOKEN)
                .isNotEqualTo(requests.get(0).authorization());
    }

    private static String base(MockWebServer s) {
        String url = s.url("/").toString();
        return url.substring(0, url.length() - 1);
    }

    /** The server under another host name: another origin. */
    private String otherHostBase() {
        String alias = server.getHostName().equals("localhost") ? "127.0.0.1" : "localhost";
        String url = server.url("/").newBuilder().host(alias).build().toString();
        return url.substring(0, url.length() - 1);
    }
}
