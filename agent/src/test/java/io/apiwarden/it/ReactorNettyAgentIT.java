package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.ChildLoaderReactorNettyApp;
import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.ReactorNettyApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reactor Netty's HttpClient, called as Spring's WebClient calls it, in an app started with the agent. */
class ReactorNettyAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-c0ffee";

    private AgentJvm app() throws Exception {
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-9b8a7")
                .property("apiwarden.backoff.initial-delay", "100ms");
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("reactor-netty"))) {
            jars.sorted().forEach(jvm::classPath);
        }
        return jvm;
    }

    private static List<String> statuses(AgentJvm.Result r) {
        return r.stdout.stream()
                .filter(l -> l.startsWith("STATUS"))
                .map(l -> l.substring(0, l.indexOf(" on ")))
                .toList();
    }

    @Test
    void callsStartedWhileTheWindowHoldsWaitAtTheGate(@TempDir Path dir) throws Exception {
        AgentJvm.Result r = runIntoAClosedGate(app(), ReactorNettyApp.class, dir, "many:16:");

        assertThat(r.stdout).as(r.toString()).contains("MANY {STATUS 200 user=16}", "FIRED STATUS 200 user");
        // The 16 (the app pool's 8 connections and 8 waiting for one) waited at the gate on the agent's timer,
        // holding no event loop; the fired call's resend went first.
        assertThat(api.duringWindow.get()).isZero();
        assertThat(api.apiRequests).hasSize(1 + 1 + 16);
    }

    @Test
    void theBearerGoesOnlyToTheApiAndARefusedTokenIsRefreshedOnce() throws Exception {
        AgentJvm.Result r = app().run(
                        ReactorNettyApp.class,
                        "get:" + url("/api/v1/user"),
                        "get:" + url("/api/v1/user"),
                        "get:" + url("/other"));

        assertThat(statuses(r))
                .as(r.toString())
                .containsExactly("STATUS 200 user", "STATUS 200 user", "STATUS 200 other");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().get("Authorization"))
                .containsExactly(
                        "Bearer " + STALE_TOKEN,
                        "Bearer " + FakeOAuthApi.ISSUED_TOKEN,
                        "Bearer " + FakeOAuthApi.ISSUED_TOKEN);
        assertThat(api.otherRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.all()).doesNotContain(FakeOAuthApi.ISSUED_TOKEN, "first-refresh-9b8a7");
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("Reactor Netty"))
                .noneMatch(l -> l.contains("could not") || l.contains("unmanaged"));
    }

    @Test
    void aBodyPublisherHandedOverOnceIsNotResentAndTheDebugLogSaysWhy() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.log.level", "debug")
                .run(ReactorNettyApp.class, "post-once:" + url("/api/v1/items"));

        assertThat(statuses(r)).as(r.toString()).singleElement().asString().startsWith("STATUS 401 ");
        assertThat(api.apiRequests).hasSize(1);
        assertThat(api.tokenRequests).isEmpty();
        assertThat(r.agentLog()).as(r.toString()).anyMatch(l -> l.contains("not resent (body_not_repeatable)"));
    }

    @Test
    void aRateLimitedCallWaitsOnATimerWhileTheEventLoopServesOtherCalls() throws Exception {
        api.rateLimitFirst = 1;

        // One event-loop thread: a wait that held it would hold the other call until the wait ended.
        AgentJvm.Result r = app().property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .property("apiwarden.backoff.initial-delay", "3s")
                .run(ReactorNettyApp.class, "loop:" + url("/api/v1/user") + ":" + url("/other"));

        assertThat(r.stdout).as(r.toString()).hasSize(2);
        assertThat(r.stdout.get(0))
                .startsWith("OTHER STATUS 200 other on app-loop")
                .contains("while-waiting=true");
        long otherMillis =
                Long.parseLong(r.stdout.get(0).substring(r.stdout.get(0).indexOf("millis=") + 7));
        assertThat(otherMillis)
                .as("the other call did not wait for the 3 s back-off")
                .isLessThan(1_500);
        assertThat(r.stdout.get(1)).startsWith("API STATUS 200 user on app-loop");
        assertThat(api.apiRequests).hasSize(2);
    }

    @Test
    void reactorNettyLoadedByAChildClassLoaderIsManaged() throws Exception {
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-9b8a7");

        AgentJvm.Result r = jvm.run(
                ChildLoaderReactorNettyApp.class,
                AgentJvm.itLib("reactor-netty").toString(),
                "get:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).first().isEqualTo("LOADER true");
        assertThat(statuses(r)).as(r.toString()).containsExactly("STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void nothingOfReactorLoadsInAnAppThatDoesNotUseIt() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .jvmArg("-verbose:class")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).contains("STATUS 200 user");
        assertThat(r.stdout)
                .filteredOn(l -> l.contains("[class,load] "))
                .noneMatch(l -> l.contains(" reactor.")
                        || l.contains(" io.netty.")
                        || l.contains("io.apiwarden.clients.reactornetty.library")
                        // Nor the module's weaving: premain registers its class names only.
                        || l.contains("io.apiwarden.clients.reactornetty.agent.ReactorNettyInstrumentation"));
        assertThat(r.stdout)
                .filteredOn(l -> l.contains("[class,load] "))
                .anyMatch(l -> l.contains("io.apiwarden.clients.reactornetty.agent.ReactorNettyModule"));
    }

    @Test
    void switchingReactorNettyOffLeavesItAlone() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.instrumentation.reactor-netty.enabled", "false")
                .run(ReactorNettyApp.class, "get:" + url("/api/v1/user"));

        assertThat(statuses(r)).as(r.toString()).singleElement().asString().startsWith("STATUS 401 ");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
    }
}
