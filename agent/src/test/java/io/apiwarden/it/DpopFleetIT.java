package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.testing.DpopServer;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Three JVMs sharing one DPoP key file and a Redis store, against a token service and an API that verify DPoP proofs
 * and demand a nonce each: one token request per expiry for the fleet, and each nonce demanded once for the fleet.
 */
class DpopFleetIT {
    private static final String TOKEN_NONCE = "tn-7f3a0c";
    private static final String API_NONCE = "an-91c2e4";

    @TempDir
    Path dir;

    private final DpopServer dpop = new DpopServer(Instant::now);
    private final MockWebServer server = new MockWebServer();
    private RedisServerProcess redis;

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(dpop.demandTokenNonce(TOKEN_NONCE).demandApiNonce(API_NONCE));
        server.start(0);
        redis = RedisServerProcess.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        redis.close();
    }

    private String url(String path) {
        return server.url(path).toString();
    }

    private CompletableFuture<AgentJvm.Result> replica(Path key, String... steps) {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.grant", "client_credentials")
                .property("apiwarden.client-id", "svc-orders")
                .property("apiwarden.client-secret", "cs-d9e1f0")
                .property("apiwarden.dpop.enabled", "true")
                .property("apiwarden.dpop.key-file", key.toString())
                .property("apiwarden.store", redis.url())
                // The first proof of a JVM waits for the fleet's nonce at most this long: a JVM starting on a loaded
                // machine of two cores, beside two others, may need more than the default half second.
                .property("apiwarden.store.timeout", "5s")
                .runInBackground(JdkClientApp.class, steps);
    }

    @Test
    void oneTokenRequestPerExpiryAndEachNonceDemandedOnceForTheFleet() throws Exception {
        Path key =
                Files.copy(Paths.get(getClass().getResource("/dpop/ec-p256.pem").toURI()), dir.resolve("dpop.pem"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        String user = url("/api/v1/user");
        Path go = dir.resolve("go");
        Path expired = dir.resolve("expired");
        Path doneB = dir.resolve("done-b");
        Path doneC = dir.resolve("done-c");

        List<CompletableFuture<AgentJvm.Result>> fleet = new ArrayList<>();
        // The first JVM meets both demands; it stays up until its nonces are in Redis, as a JVM of a fleet does.
        fleet.add(replica(key, "send:" + user, "await:" + go));
        for (Path done : List.of(doneB, doneC)) {
            fleet.add(replica(
                    key,
                    "await:" + go,
                    "concurrent:5:" + user,
                    "touch:" + done,
                    "await:" + expired,
                    "concurrent:10:" + user));
        }
        RedisStoreSettings settings = RedisStoreSettings.parse(Map.of("apiwarden.store", redis.url())::get)
                .settings();
        String tokenNonceKey = settings.dpopNonceKey(URI.create(url("/auth/token")), true);
        String apiNonceKey = settings.dpopNonceKey(URI.create(url("/api/v1")), false);
        try (Jedis jedis = new Jedis(URI.create(redis.url()))) {
            awaitThat(
                    "both nonces in Redis",
                    () -> TOKEN_NONCE.equals(jedis.get(tokenNonceKey)) && API_NONCE.equals(jedis.get(apiNonceKey)),
                    fleet);
        }
        Files.createFile(go);
        awaitThat(
                "the other two JVMs' first calls",
                () -> Files.exists(doneB) && Files.exists(doneC),
                fleet.subList(1, 3));
        // The token expires; only JVMs that never met the token endpoint are left to refresh it.
        dpop.revokeAll();
        Files.createFile(expired);

        List<AgentJvm.Result> results = new ArrayList<>();
        for (CompletableFuture<AgentJvm.Result> r : fleet) {
            results.add(r.get(2, TimeUnit.MINUTES));
        }
        assertThat(results.get(0).stdout).as(results.get(0).toString()).containsExactly("STATUS 200 ok /api/v1/user");
        for (AgentJvm.Result r : results.subList(1, 3)) {
            assertThat(r.stdout).as(r.toString()).containsExactly("STATUSES {200=5}", "STATUSES {200=10}");
        }
        for (AgentJvm.Result r : results) {
            assertThat(r.all()).as("nonces are never logged").doesNotContain(TOKEN_NONCE, API_NONCE, "cs-d9e1f0");
        }
        assertThat(dpop.tokensIssued())
                .as("the first token, then one after the expiry")
                .isEqualTo(2);
        assertThat(dpop.tokenNonceDemands())
                .as("the token endpoint's nonce, learnt once")
                .isEqualTo(1);
        assertThat(dpop.apiNonceDemands()).as("the API's nonce, learnt once").isEqualTo(1);
        assertThat(dpop.replays()).isZero();
        assertThat(dpop.refusals()).isEmpty();
    }

    /** Waits a minute at most for {@code what}; fails at once, saying why, when a JVM of the fleet ends first. */
    private static void awaitThat(
            String what, BooleanSupplier condition, List<CompletableFuture<AgentJvm.Result>> fleet) {
        Eventually.await(what, Duration.ofMinutes(1), () -> {
            for (CompletableFuture<AgentJvm.Result> r : fleet) {
                if (r.isDone()) {
                    throw new AssertionError("a JVM ended early: " + r.join());
                }
            }
            return condition.getAsBoolean();
        });
    }
}
