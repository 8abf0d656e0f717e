package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.RedisServerProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet: JVMs that share one OAuth client through a real Redis, each started with the same
 * refresh token (a Kubernetes secret, say), against a token service with strict rotation.
 */
class SharedRedisStoreIT extends AgainstFakeApi {
    private static final String SECRET = "first-refresh-9b8a7";

    @TempDir
    Path dir;

    private RedisServerProcess redis;

    @BeforeEach
    void startRedis() throws Exception {
        redis = RedisServerProcess.start();
    }

    @AfterEach
    void stopRedis() throws Exception {
        redis.close();
    }

    private AgentJvm replica() {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token", SECRET)
                .property("apiwarden.store", redis.url())
                .property("apiwarden.backoff.initial-delay", "100ms");
    }

    private List<AgentJvm.Result> fleet(int replicas, String... steps) throws Exception {
        List<CompletableFuture<AgentJvm.Result>> running = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            running.add(replica().runInBackground(JdkClientApp.class, steps));
        }
        List<AgentJvm.Result> results = new ArrayList<>();
        for (CompletableFuture<AgentJvm.Result> r : running) {
            results.add(r.get(2, TimeUnit.MINUTES));
        }
        return results;
    }

    @Test
    void threeReplicasOfFiftyCallsMakeOneTokenRequestPerExpiryAndLateReplicasAdoptTheState() throws Exception {
        api.currentRefreshToken = SECRET;
        api.revocable = true;

        for (AgentJvm.Result r : fleet(3, "concurrent:50:" + url("/api/v1/user"))) {
            assertThat(r.stdout).as(r.toString()).containsExactly("STATUSES {200=50}");
        }
        assertThat(api.tokenRequests).as("the first token, for the whole fleet").hasSize(1);

        // The server revokes the fleet's access token; replicas started now still hold the
        // original secret, which strict rotation has long revoked: they must take the stored state.
        replica().run(JdkClientApp.class, "send:" + url("/revoke"));
        List<AgentJvm.Result> afterRevocation = fleet(3, "clock:", "concurrent:50:" + url("/api/v1/user"), "clock:");
        for (AgentJvm.Result r : afterRevocation) {
            assertThat(r.stdout).as(r.toString()).hasSize(3).contains("STATUSES {200=50}");
            assertThat(r.all()).doesNotContain(SECRET, FakeOAuthApi.ISSUED_TOKEN, FakeOAuthApi.ROTATED_REFRESH_TOKEN);
        }
        // A figure for docs/benchmarks.md, not an assertion: from the first replica's first call to the last one's last
        // answer.
        long first = afterRevocation.stream()
                .mapToLong(r -> Long.parseLong(r.stdout.get(0).substring(6)))
                .min()
                .orElseThrow();
        long last = afterRevocation.stream()
                .mapToLong(r -> Long.parseLong(r.stdout.get(2).substring(6)))
                .max()
                .orElseThrow();
        System.out.println("[fleet] 3 JVMs x 50 calls after a revocation, through Redis: "
                + (api.tokenRequests.size() - 1) + " token request(s), all answered in " + (last - first) + " ms");
        assertThat(api.tokenRequests).as("one more after the revocation").hasSize(2);
        assertThat(api.invalidGrants).hasValue(0);
    }

    @Test
    void twentyExpiriesInARowCostOneTokenRequestEachAndNoInvalidGrant() throws Exception {
        api.currentRefreshToken = SECRET;
        api.revocable = true;

        List<AgentJvm.Result> fleet =
                new ExpiryRounds(this::replica, dir, url("/api/v1/user"), url("/revoke")).run(3, 20, 10);

        for (AgentJvm.Result r : fleet) {
            assertThat(r.stdout).as(r.toString()).hasSize(21).containsOnly("STATUSES {200=10}");
        }
        assertThat(api.tokenRequests)
                .as("the first token, then one per expiry for the fleet")
                .hasSize(21);
        assertThat(api.invalidGrants).hasValue(0);
    }

    @Test
    void replicasWithClientCredentialsMakeOneTokenRequestPerExpiryThroughRedis() throws Exception {
        api.revocable = true;
        api.clientId = "svc-orders";
        api.clientSecret = "cs-5b0e2d9a71";

        List<AgentJvm.Result> fleet = new ExpiryRounds(
                        this::clientCredentialsReplica, dir, url("/api/v1/user"), url("/revoke"))
                .run(3, 10, 10);

        for (AgentJvm.Result r : fleet) {
            assertThat(r.stdout).as(r.toString()).hasSize(11).containsOnly("STATUSES {200=10}");
            assertThat(r.all()).doesNotContain("cs-5b0e2d9a71", FakeOAuthApi.ISSUED_TOKEN);
        }
        assertThat(api.tokenRequests("client_credentials"))
                .as("the first token, then one per expiry for the fleet")
                .isEqualTo(11);
        assertThat(api.tokenRequests("refresh_token")).isZero();
    }

    private AgentJvm clientCredentialsReplica() {
        return replica()
                .property("apiwarden.refresh-token", null)
                .property("apiwarden.grant", "client_credentials")
                .property("apiwarden.client-id", "svc-orders")
                .property("apiwarden.client-secret", "cs-5b0e2d9a71");
    }

    @Test
    void callsGoOnWhileRedisIsDownAndTheStateIsWrittenBackWhenItReturns() throws Exception {
        api.currentRefreshToken = SECRET;
        api.revocable = true;
        Path down = dir.resolve("redis-down");
        Path back = dir.resolve("redis-back");
        String user = "send:" + url("/api/v1/user");
        CompletableFuture<AgentJvm.Result> app =
                replica().runInBackground(JdkClientApp.class, user, "await:" + down, user, "await:" + back, user);

        Eventually.await("the app's first API call", MINUTE, () -> api.apiRequests.size() >= 1);
        redis.kill();
        revokeAll();
        Files.createFile(down);
        Eventually.await("a second token request", MINUTE, () -> api.tokenRequests.size() >= 2);
        redis.restart();
        revokeAll();
        Files.createFile(back);
        AgentJvm.Result r = app.get(2, TimeUnit.MINUTES);

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user", "STATUS 200 user", "STATUS 200 user");
        assertThat(r.agentLog())
                .as(r.toString())
                .filteredOn(l -> l.contains("WARN") && l.contains("refreshes on its own"))
                .hasSize(1);
        assertThat(api.tokenRequests).hasSize(3);
        // The fleet's state is in Redis again: a replica started now needs no token.
        AgentJvm.Result late = replica().run(JdkClientApp.class, user);
        assertThat(late.stdout).as(late.toString()).containsExactly("STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(3);
        assertThat(api.invalidGrants).hasValue(0);
    }

    private void revokeAll() throws Exception {
        java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(java.net.URI.create(url("/revoke")))
                                .build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
    }

    /** As long as the app may take to get there on a loaded machine. */
    private static final Duration MINUTE = Duration.ofMinutes(1);
}
