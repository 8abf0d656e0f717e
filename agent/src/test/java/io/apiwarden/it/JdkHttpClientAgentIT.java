package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.OwnByteBuddyApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plain JDK-HttpClient app, started with {@code -javaagent}, against a real local server. */
class JdkHttpClientAgentIT extends AgainstFakeApi {
    private static final String STALE_TOKEN = "stale-access-c0ffee";
    private static final String REFRESH_TOKEN = "first-refresh-9b8a7";

    @TempDir
    Path dir;

    private AgentJvm app() {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE_TOKEN)
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                .property("apiwarden.backoff.initial-delay", "100ms");
    }

    @Test
    void refreshesAnExpiredTokenAndManagesOnlyTheApi() throws Exception {
        AgentJvm.Result r = app().run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "async:" + url("/api/v1/user"),
                        "send:" + url("/other"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout).containsExactly("STATUS 200 user", "STATUS 200 user", "STATUS 200 other");
        assertThat(api.tokenRequests).hasSize(1);
        RecordedRequest token = api.tokenRequests.get(0);
        assertThat(token.getMethod()).isEqualTo("POST");
        assertThat(token.getHeaders().get("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(token.getBody().utf8()).isEqualTo("grant_type=refresh_token&refresh_token=" + REFRESH_TOKEN);
        assertThat(api.apiRequests)
                .extracting(q -> q.getHeaders().get("Authorization"))
                .containsExactly(
                        "Bearer " + STALE_TOKEN,
                        "Bearer " + FakeOAuthApi.ISSUED_TOKEN,
                        "Bearer " + FakeOAuthApi.ISSUED_TOKEN);
        assertThat(api.otherRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.all())
                .doesNotContain(
                        STALE_TOKEN, REFRESH_TOKEN, FakeOAuthApi.ISSUED_TOKEN, FakeOAuthApi.ROTATED_REFRESH_TOKEN);
    }

    @Test
    void twoHundredConcurrentCallsWithAnExpiredTokenCauseOneTokenRequest() throws Exception {
        AgentJvm.Result r = app().run(JdkClientApp.class, "concurrent:200:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUSES {200=200}");
        assertThat(api.tokenRequests).hasSize(1);
    }

    @Test
    void aTokenRevokedMomentsAfterItsIssueIsRefreshedOnceForFiftyConcurrentCalls() throws Exception {
        api.revocable = true;

        AgentJvm.Result r = app().run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "send:" + url("/revoke"),
                        "concurrent:50:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly("STATUS 200 user", "STATUS 200 revoked", "STATUSES {200=50}");
        assertThat(api.tokenRequests)
                .as("one at the start, one after the revocation")
                .hasSize(2);
    }

    @Test
    void anApiThatRevokesEachTokenAfterFiveUsesSeesEveryCallSucceed() throws Exception {
        api.revocable = true;
        api.revokeAfterUses = 5;
        String[] sixty = new String[60];
        java.util.Arrays.fill(sixty, "send:" + url("/api/v1/user"));

        AgentJvm.Result r = app().run(JdkClientApp.class, sixty);

        assertThat(r.stdout).as(r.toString()).hasSize(60).containsOnly("STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(12);
    }

    @Test
    void theTokenNeverGoesWithAPathThatAServerResolvesOutsideTheBase() throws Exception {
        String base = url("/api/v1");

        AgentJvm.Result r = app().property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .run(
                        JdkClientApp.class,
                        "send:" + base + "/../admin",
                        "send:" + base + "/%2e%2e/admin",
                        "async:" + base + "/./../../admin",
                        "send:" + base + "/..%2Fadmin",
                        "send:" + base + "/user");

        assertThat(r.exitCode).as(r.toString()).isZero();
        java.util.List<RecordedRequest> all = new java.util.ArrayList<>(api.otherRequests);
        all.addAll(api.apiRequests);
        assertThat(all).hasSize(5);
        assertThat(all)
                .filteredOn(q -> q.getHeaders().get("Authorization") != null)
                .singleElement()
                .satisfies(q -> assertThat(q.getUrl().encodedPath()).isEqualTo("/api/v1/user"));
    }

    @Test
    void aRotatedRefreshTokenIsWrittenBackOwnerOnly() throws Exception {
        Path file = dir.resolve("refresh-token");
        Files.writeString(file, REFRESH_TOKEN + "\n");

        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token-file", file.toString())
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user");
        assertThat(Files.readString(file).trim()).isEqualTo(FakeOAuthApi.ROTATED_REFRESH_TOKEN);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        Path state = dir.resolve(".refresh-token.state");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
                .as("it holds the access token")
                .isEqualTo("rw-------");
        try (var leftovers = Files.list(dir)) {
            assertThat(leftovers)
                    .as("no temporary file, no lease left behind")
                    .containsExactlyInAnyOrder(file, state, dir.resolve(".refresh-token.lock"));
        }
    }

    @Test
    void aRevokedRefreshTokenIsFinalAndTheAppGetsTheApisAnswer() throws Exception {
        api.tokenError = "invalid_grant";

        AgentJvm.Result r = app().run(JdkClientApp.class, "send:" + url("/api/v1/user"), "send:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(r.agentLog())
                .filteredOn(l -> l.contains("ERROR"))
                .singleElement()
                .asString()
                .contains("invalid_grant");
    }

    @Test
    void aBrokenConfigurationLeavesTheAppRunningWithOneClearLine() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.base-url", "api.example.com/v1")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.exitCode).isZero();
        assertThat(r.stdout).containsExactly("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.agentLog())
                .singleElement()
                .asString()
                .contains("ERROR", "apiwarden.base-url", "http or https URL")
                .doesNotContain(STALE_TOKEN, REFRESH_TOKEN);
    }

    @Test
    void onTheBootClassPathTheAgentStaysInactiveAndSaysWhy() throws Exception {
        // As an app's start script might: the agent's jar also given to the boot class path, as some agents ask.
        AgentJvm.Result r = app().jvmArg("-Xbootclasspath/a:" + AgentJvm.agentJar())
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout).containsExactly("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.agentLog())
                .singleElement()
                .asString()
                .contains("ERROR", "boot class path", "java.net.http", "-javaagent only")
                .doesNotContain(STALE_TOKEN, REFRESH_TOKEN);
    }

    @Test
    void disabledTheAgentInstallsNothing() throws Exception {
        AgentJvm.Result r =
                app().property("apiwarden.enabled", "false").run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).containsExactly("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.agentLog()).isEmpty();
    }

    @Test
    void anAppWithItsOwnByteBuddyWorksBesideTheAgent() throws Exception {
        Path appByteBuddy = AgentJvm.itLib("app-byte-buddy.jar");

        AgentJvm.Result r = app().property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .classPath(appByteBuddy)
                .run(OwnByteBuddyApp.class, url("/api/v1/user"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout).containsExactly("BYTEBUDDY io.apiwarden.it.apps.Made from " + appByteBuddy, "STATUS 200");
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization"))
                .isEqualTo("Bearer " + FakeOAuthApi.ISSUED_TOKEN);
    }
}
