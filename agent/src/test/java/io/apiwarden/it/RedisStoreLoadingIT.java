package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.RedisStoreApp;
import io.apiwarden.testing.RedisServerProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Redis client costs nothing unless the Redis store is used: an app whose agent does not use it loads
 * no class of it, and an app that does use it hears nothing from its logging. The same run shows that DPoP's
 * JOSE library and the agent's DPoP package load only when DPoP is on.
 */
class RedisStoreLoadingIT extends AgainstFakeApi {
    /** Packages of the Redis store and of what it bundles: Jedis, its pool, SLF4J, Gson and org.json. */
    private static final List<String> REDIS_PACKAGES = List.of(
            "io.apiwarden.core.token.store.redis.",
            "io.apiwarden.shaded.redis.",
            "io.apiwarden.shaded.org.apache.commons.pool2.",
            "io.apiwarden.shaded.org.slf4j.",
            "io.apiwarden.shaded.com.google.gson.",
            "io.apiwarden.shaded.org.json.");
    /** Of Gson, what the agent reads and writes its own JSON with (token answers, the token state's file): not the store's. */
    private static final List<String> AGENT_JSON = List.of(
            "io.apiwarden.shaded.com.google.gson.stream.",
            "io.apiwarden.shaded.com.google.gson.Strictness",
            "io.apiwarden.shaded.com.google.gson.FormattingStyle",
            "io.apiwarden.shaded.com.google.gson.internal.JsonReaderInternalAccess");

    /** Names of the classes the JVM reported loading with -verbose:class. */
    private static List<String> loadedClasses(AgentJvm.Result r) {
        return r.stdout.stream()
                .filter(l -> l.contains("[class,load]"))
                .map(l -> l.substring(l.indexOf("[class,load]") + "[class,load]".length())
                        .trim()
                        .split(" ")[0])
                .collect(Collectors.toList());
    }

    private static List<String> redisClasses(List<String> loaded) {
        return loaded.stream()
                .filter(c -> REDIS_PACKAGES.stream().anyMatch(c::startsWith))
                .filter(c -> AGENT_JSON.stream().noneMatch(c::startsWith))
                .collect(Collectors.toList());
    }

    @Test
    void anAppWhoseAgentUsesNoStoreLoadsNoRedisClass() throws Exception {
        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token", "refresh-for-loading-test")
                .jvmArg("-verbose:class")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).contains("STATUS 200 user");
        List<String> loaded = loadedClasses(r);
        assertThat(loaded)
                .as("the agent ran: refreshed and sent a managed call")
                .contains("io.apiwarden.core.token.TokenManager", "io.apiwarden.clients.jdk.library.ManagedCall");
        assertThat(redisClasses(loaded)).isEmpty();
        assertThat(loaded)
                .as("DPoP is off: neither the JOSE library nor the agent's DPoP classes load")
                .noneMatch(c -> c.startsWith("io.apiwarden.shaded.com.nimbusds.")
                        || c.startsWith("io.apiwarden.core.dpop.")
                        || c.equals("io.apiwarden.core.token.Htu"));
    }

    @Test
    void theStoreInTheAgentJarWorksAgainstRedisAndItsLoggingIsSilent() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        AgentJvm.Result r;
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            r = new AgentJvm()
                    .property("apiwarden.base-url", url("/api/v1"))
                    .jvmArg("-verbose:class")
                    .run(RedisStoreApp.class, Integer.toString(redis.port()), Integer.toString(closedPort));
        }

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .as(r.toString())
                .contains(
                        "WROTE true",
                        "READ TokenState{generation=1, accessToken=<set>, expiresAt=null, refreshToken=<set>}",
                        "LEASED true true",
                        "UNAVAILABLE the token store at redis 127.0.0.1:" + closedPort
                                + "/0 refused the connection: check that Redis runs there and that apiwarden.store names it");
        assertThat(redisClasses(loadedClasses(r)))
                .as("the check of the test above can see them")
                .contains(
                        "io.apiwarden.shaded.redis.clients.jedis.Connection",
                        "io.apiwarden.shaded.org.slf4j.LoggerFactory");
        assertThat(r.stdout).contains("LOGGER io.apiwarden.shaded.org.slf4j.helpers.NOPLogger");
        assertThat(r.stderr)
                .as("nothing from SLF4J or the logger")
                .noneMatch(l -> l.contains("SLF4J") || l.contains("probe-from"));
        assertThat(r.stdout).noneMatch(l -> l.contains("SLF4J") || l.contains("probe-from"));
    }
}
