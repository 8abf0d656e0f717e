package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.ApacheHttpClientApp;
import io.apiwarden.it.apps.ChildLoaderApacheHttpApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Apache HttpClient 5 apps, classic and async, started with the agent. */
class ApacheHttpClientAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-5a11e";

    private AgentJvm app() throws Exception {
        AgentJvm jvm = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-4c3d2")
                .property("apiwarden.backoff.initial-delay", "100ms");
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("httpclient5"))) {
            jars.sorted().forEach(jvm::classPath);
        }
        return jvm;
    }

    @Test
    void classicAndAsyncCallsStartedWhileTheWindowHoldsWaitAtTheGate(@TempDir Path dir) throws Exception {
        AgentJvm.Result r = runIntoAClosedGate(app(), ApacheHttpClientApp.class, dir, "both:20:");

        assertThat(r.stdout)
                .as(r.toString())
                .contains("BOTH {ASYNC STATUS 200 user=20, STATUS 200 user=20}", "FIRED ASYNC STATUS 200 user");
        assertThat(api.duringWindow.get()).isZero();
        assertThat(api.apiRequests).hasSize(1 + 1 + 40);
    }

    @Test
    void classicCallsGetTheBearerOnlyInScopeAndAreRefreshedOnce() throws Exception {
        AgentJvm.Result r = app().run(
                        ApacheHttpClientApp.class,
                        "get:" + url("/api/v1/user"),
                        "get:" + url("/api/v1/user"),
                        "get:" + url("/other"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STATUS"))
                .containsExactly("STATUS 200 user", "STATUS 200 user", "STATUS 200 other");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().values("Authorization"))
                .containsExactly(
                        List.of("Bearer " + STALE_TOKEN),
                        List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN),
                        List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN));
        assertThat(api.otherRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.all()).doesNotContain(STALE_TOKEN, FakeOAuthApi.ISSUED_TOKEN, "first-refresh-4c3d2");
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("Apache HttpClient 5"));
    }

    @Test
    void aClassicStreamedBodyIsRecordedAndResentAfterTheRefresh() throws Exception {
        AgentJvm.Result r = app().run(ApacheHttpClientApp.class, "post-stream:" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).contains("STATUS 200");
        assertThat(api.apiRequests).extracting(q -> q.getBody().utf8()).containsExactly("{}", "{}");
        assertThat(api.apiRequests.get(1).getHeaders().get("Authorization"))
                .isEqualTo("Bearer " + FakeOAuthApi.ISSUED_TOKEN);
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void aClassicStreamedBodyOverTheRecordingBoundIsNotResentAndTheAgentSaysWhy() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.log.level", "debug")
                .property("apiwarden.resend.max-recorded-body", "1")
                .run(ApacheHttpClientApp.class, "post-stream:" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).contains("STATUS 401");
        assertThat(api.apiRequests).hasSize(1);
        assertThat(api.tokenRequests).isEmpty();
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("not resent (body_too_large_to_replay)") && l.contains("POST"));
    }

    @Test
    void theClientInAChildClassLoaderIsManaged() throws Exception {
        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-4c3d2")
                .run(
                        ChildLoaderApacheHttpApp.class,
                        AgentJvm.itLib("httpclient5").toString(),
                        "get:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("LOADER fat-jar", "STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void asyncCallsGetTheBearerOnlyInScopeAndAreRefreshedOnce() throws Exception {
        AgentJvm.Result r = app().run(
                        ApacheHttpClientApp.class,
                        "async-get:" + url("/api/v1/user"),
                        "async-get:" + url("/api/v1/user"),
                        "async-get:" + url("/other"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("ASYNC"))
                .containsExactly("ASYNC STATUS 200 user", "ASYNC STATUS 200 user", "ASYNC STATUS 200 other");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().values("Authorization"))
                .containsExactly(
                        List.of("Bearer " + STALE_TOKEN),
                        List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN),
                        List.of("Bearer " + FakeOAuthApi.ISSUED_TOKEN));
        assertThat(api.otherRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.all()).doesNotContain(STALE_TOKEN, FakeOAuthApi.ISSUED_TOKEN, "first-refresh-4c3d2");
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("Apache HttpClient 5"))
                .noneMatch(l -> l.contains("which the agent does not manage"));
    }

    @Test
    void anAsyncOneShotBodyIsNotResentWithoutRecordingAndTheAgentSaysWhy() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.log.level", "debug")
                .property("apiwarden.resend.max-recorded-body", "0")
                .run(ApacheHttpClientApp.class, "async-post-oneshot:" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).contains("ASYNC STATUS 401");
        assertThat(api.apiRequests).hasSize(1);
        assertThat(api.tokenRequests).isEmpty();
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("not resent (") && l.contains("body_not_repeatable") && l.contains("POST"));
    }

    @Test
    void cancellingAnAsyncCallEndsItsWaitAtOnceAndNothingIsResent() throws Exception {
        api.rateLimitFirst = 100;

        AgentJvm.Result r = app().property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .property("apiwarden.backoff.initial-delay", "30s")
                .run(ApacheHttpClientApp.class, "async-get-cancel:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).contains("ASYNC-GET-CANCEL cancelled=true callback=cancelled fast=true");
        assertThat(api.apiRequests).hasSize(1);
    }

    @Test
    void theAsyncClientInAChildClassLoaderIsManaged() throws Exception {
        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", "first-refresh-4c3d2")
                .run(
                        ChildLoaderApacheHttpApp.class,
                        AgentJvm.itLib("httpclient5").toString(),
                        "async-get:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("LOADER fat-jar", "ASYNC STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void switchedOffTheClientIsLeftAlone() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.instrumentation.apache-httpclient.enabled", "false")
                .run(ApacheHttpClientApp.class, "get:" + url("/api/v1/user"), "async-get:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .contains(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "ASYNC STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().get("Authorization"))
                .containsOnlyNulls();
    }
}
