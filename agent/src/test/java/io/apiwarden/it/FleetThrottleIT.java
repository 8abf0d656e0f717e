package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Three JVMs calling one API through a real Redis store while its global rate limit holds: the
 * first JVM refused closes the gate of all three, so the API hears next to nothing until the
 * window ends, and every call succeeds after it.
 */
class FleetThrottleIT extends AgainstFakeApi {
    private static final long WINDOW_MILLIS = 3000;

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

    private CompletableFuture<AgentJvm.Result> replica(String... steps) {
        return replica(new AgentJvm(), steps);
    }

    private CompletableFuture<AgentJvm.Result> replica(AgentJvm jvm, String... steps) {
        jvm.property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token", "fleet-refresh-1")
                .property("apiwarden.store", redis.url())
                .property("apiwarden.backoff.initial-delay", "1s");
        return jvm.runInBackground(JdkClientApp.class, steps);
    }

    @Test
    void aWindowMetByOneJvmHoldsTheCallsOfTheWholeFleet() throws Exception {
        api.rateLimitWindowMillis = WINDOW_MILLIS;
        String user = url("/api/v1/user");
        Path goFirst = dir.resolve("go-first");
        Path goAll = dir.resolve("go-all");
        List<CompletableFuture<AgentJvm.Result>> fleet = new ArrayList<>();
        fleet.add(replica("await:" + goFirst, "fire:" + user, "await:" + goAll, "concurrent:50:" + user));
        int secondsMetrics = AgentMetrics.freePort();
        fleet.add(replica(
                new AgentJvm().property("apiwarden.metrics.prometheus.port", Integer.toString(secondsMetrics)),
                "await:" + goAll,
                "concurrent:50:" + user));
        fleet.add(replica("await:" + goAll, "concurrent:50:" + user));
        String key = RedisStoreSettings.parse(Map.of("apiwarden.store", redis.url())::get)
                .settings()
                .throttleKey(URI.create(url("/api/v1")));

        try (Jedis jedis = new Jedis(URI.create(redis.url()))) {
            awaitThat(
                    "the three JVMs to subscribe", () -> jedis.pubsubNumSub(key).getOrDefault(key, 0L) == 3, fleet);
            Files.createFile(goFirst);
            // The first JVM's call opens the window and is refused; the JVM tells the fleet.
            awaitThat("the window in Redis", () -> jedis.pttl(key) > 0, fleet);
            // The second JVM has made no call yet: it says the limit holds only because it heard the first.
            AgentMetrics.awaitLine(secondsMetrics, "apiwarden_throttled{api=\"default\"} 1.0", fleet.get(1));
            long startedMillis = System.currentTimeMillis();
            Files.createFile(goAll);

            for (CompletableFuture<AgentJvm.Result> r : fleet) {
                AgentJvm.Result result = r.get(2, TimeUnit.MINUTES);
                assertThat(result.stdout).as(result.toString()).contains("STATUSES {200=50}");
            }
            System.out.println(
                    "[fleet-throttle] 3 JVMs x 50 calls into a " + WINDOW_MILLIS + " ms window, through Redis: "
                            + api.duringWindow.get() + " API request(s) during the window, " + api.apiRequests.size()
                            + " in all, all JVMs done " + (System.currentTimeMillis() - startedMillis)
                            + " ms after the calls began");
        }
        // Without the fleet's gate the 150 calls would all be refused once in the window.
        assertThat(api.duringWindow.get())
                .as("at most one per JVM while the window holds")
                .isLessThanOrEqualTo(3);
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
