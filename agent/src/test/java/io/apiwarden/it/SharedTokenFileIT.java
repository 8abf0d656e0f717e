package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JVMs on one host that share an {@code apiwarden.refresh-token-file}, against a token service
 * with strict rotation (every refresh token works once): they coordinate through the file with
 * no other setting.
 */
class SharedTokenFileIT extends AgainstFakeApi {
    private static final String FIRST_REFRESH_TOKEN = "first-refresh-9b8a7";

    @TempDir
    Path dir;

    private AgentJvm app(Path file) {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token-file", file.toString())
                .property("apiwarden.backoff.initial-delay", "100ms");
    }

    private Path refreshTokenFile() throws Exception {
        Path file = dir.resolve("refresh-token");
        Files.writeString(file, FIRST_REFRESH_TOKEN + "\n");
        api.currentRefreshToken = FIRST_REFRESH_TOKEN;
        return file;
    }

    @Test
    void threeJvmsStartedTogetherWithOneFileMakeOneTokenRequestAndEveryCallSucceeds() throws Exception {
        Path file = refreshTokenFile();

        List<CompletableFuture<AgentJvm.Result>> jvms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            jvms.add(app(file).runInBackground(JdkClientApp.class, "concurrent:50:" + url("/api/v1/user")));
        }

        for (CompletableFuture<AgentJvm.Result> jvm : jvms) {
            AgentJvm.Result r = jvm.get();
            assertThat(r.stdout).as(r.toString()).containsExactly("STATUSES {200=50}");
        }
        assertThat(api.tokenRequests).as("one refresh for the three of them").hasSize(1);
        assertThat(api.invalidGrants).hasValue(0);
        assertThat(Files.readString(file).trim()).isEqualTo(api.currentRefreshToken);
    }

    @Test
    void twentyExpiriesInARowCostOneTokenRequestEachAndNoInvalidGrant() throws Exception {
        Path file = refreshTokenFile();
        api.revocable = true;

        List<AgentJvm.Result> jvms =
                new ExpiryRounds(() -> app(file), dir, url("/api/v1/user"), url("/revoke")).run(3, 20, 10);

        for (AgentJvm.Result r : jvms) {
            assertThat(r.stdout).as(r.toString()).hasSize(21).containsOnly("STATUSES {200=10}");
        }
        assertThat(api.tokenRequests)
                .as("the first token, then one per expiry for the three")
                .hasSize(21);
        assertThat(api.invalidGrants).hasValue(0);
        assertThat(Files.readString(file).trim()).isEqualTo(api.currentRefreshToken);
    }

    @Test
    void aJvmStartedLaterWithTheSameFileUsesTheStoredTokenWithoutAskingForOne() throws Exception {
        Path file = refreshTokenFile();
        AgentJvm.Result first = app(file).run(JdkClientApp.class, "send:" + url("/api/v1/user"));
        assertThat(first.stdout).as(first.toString()).containsExactly("STATUS 200 user");

        AgentJvm.Result later =
                app(file).run(JdkClientApp.class, "send:" + url("/api/v1/user"), "send:" + url("/api/v1/user"));

        assertThat(later.stdout).as(later.toString()).containsExactly("STATUS 200 user", "STATUS 200 user");
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.invalidGrants).hasValue(0);
    }

    @Test
    void aRotationByAnotherJvmIsAdoptedInsteadOfEndingInInvalidGrant() throws Exception {
        Path file = refreshTokenFile();
        // The first JVM refreshes and rotates; the second then finds its token refused by the API
        // (revoked) and must refresh with the rotated refresh token, not the one it started with.
        api.revocable = true;
        AgentJvm.Result first =
                app(file).run(JdkClientApp.class, "send:" + url("/api/v1/user"), "send:" + url("/revoke"));
        assertThat(first.stdout).as(first.toString()).containsExactly("STATUS 200 user", "STATUS 200 revoked");

        AgentJvm.Result second = app(file).run(JdkClientApp.class, "concurrent:20:" + url("/api/v1/user"));

        assertThat(second.stdout).as(second.toString()).containsExactly("STATUSES {200=20}");
        assertThat(api.tokenRequests).hasSize(2);
        assertThat(api.invalidGrants).hasValue(0);
        assertThat(second.all())
                .doesNotContain(FIRST_REFRESH_TOKEN, FakeOAuthApi.ROTATED_REFRESH_TOKEN, FakeOAuthApi.ISSUED_TOKEN);
    }

    @Test
    void aJvmKilledWhileItHoldsTheRightToRefreshDoesNotHoldUpTheNextOne() throws Exception {
        Path file = refreshTokenFile();
        api.holdFirstTokenRequestMillis = 30_000;
        Process holder = app(file).start(JdkClientApp.class, "send:" + url("/api/v1/user")).process;
        try {
            assertThat(api.firstTokenRequestArrived.await(30, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the first JVM took the lease and asked for a token")
                    .isTrue();
        } finally {
            holder.destroyForcibly().waitFor();
        }

        AgentJvm.Result next = app(file).run(JdkClientApp.class, "clock:", "send:" + url("/api/v1/user"), "clock:");

        assertThat(next.stdout).as(next.toString()).hasSize(3).contains("STATUS 200 user");
        long waited = Long.parseLong(next.stdout.get(2).substring(6))
                - Long.parseLong(next.stdout.get(0).substring(6));
        // Its holder is gone from this host, so the lease is free at once; in any case never later than the lease.
        assertThat(waited)
                .as("ms for the second JVM's call")
                .isLessThan(io.apiwarden.core.token.TokenSharing.LEASE_TTL.toMillis());
        assertThat(api.invalidGrants).hasValue(0);
        api.releaseFirstTokenRequest.countDown();
    }
}
