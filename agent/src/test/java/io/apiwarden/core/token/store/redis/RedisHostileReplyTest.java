package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.ScriptedRedisServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A "Redis" that answers what no Redis would: a length or count that Jedis would allocate for before a
 * byte of it came, arrays nested until a stack overflows, types the store never asks for. Each is a store
 * failure, at once, as an unavailable store (the JVM then refreshes alone), never an Error; and the fleet
 * window's thread lives through it.
 */
class RedisHostileReplyTest {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/token");
    private static final TokenState STATE = new TokenState(1, "access-0c4d", null, null, "refresh-0c4d");

    /** The answers of issue 19's row 10, and more of their kind, each with what the failure must say. */
    private static final Map<String, String> HOSTILE = Map.of(
            // 100 MB announced, a little sent: Jedis allocated the 100 MB, then waited for the rest.
            "$104857600\r\n" + "x".repeat(1000),
            "a bulk string of more than",
            "$2000000000\r\n",
            "a bulk string of more than",
            "*2000000000\r\n",
            "an array of more than 3 elements",
            "*1\r\n".repeat(200_000),
            "arrays nested more than 1 deep",
            "*2\r\n$1\r\n1\r\n$104857600\r\n",
            "a bulk string of more than",
            "+" + "x".repeat(ReplyLimits.MAX_REPLY_BYTES + 10),
            "a reply of more than",
            "%1\r\n+a\r\n+b\r\n",
            "a reply of a type the store never asks for (first byte 0x25)",
            "$-0\r\nxx",
            "a negative length other than -1");

    private final SystemDelayScheduler scheduler = new SystemDelayScheduler();

    private static TokenStore store(ScriptedRedisServer redis) {
        return new RedisTokenStore(
                RedisTestSettings.of(redis.url(), "apiwarden.store.timeout", "2s"), TOKEN_URL, "hostile");
    }

    /**
     * The failure of {@code operation}, refused for what Redis answered: a reply waited out to the store's
     * time-out would say "did not answer within". Preemptive, so that a store that does hang fails the test
     * instead of holding the build.
     */
    private static StoreUnavailableException failsAtOnce(Executable operation) {
        StoreUnavailableException e = assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> assertThrows(StoreUnavailableException.class, operation));
        assertThat(e).as("refused, not waited out").hasMessageNotContaining("did not answer within");
        return e;
    }

    @Test
    void everyOperationFailsAtOnceAsAStoreFailureOnAReplyTooLargeTooDeepOrOfTheWrongKind() throws Exception {
        for (Map.Entry<String, String> hostile : HOSTILE.entrySet()) {
            String shown =
                    hostile.getKey().substring(0, Math.min(20, hostile.getKey().length()));
            try (ScriptedRedisServer redis = new ScriptedRedisServer(ScriptedRedisServer.always(hostile.getKey()));
                    TokenStore store = store(redis)) {
                List<Executable> operations = List.of(
                        store::read, () -> store.compareAndSet(STATE), () -> store.tryLease(Duration.ofSeconds(5)));
                for (Executable operation : operations) {
                    assertThat(failsAtOnce(operation))
                            .as(shown)
                            .hasMessageStartingWith(
                                    "the token store at redis 127.0.0.1:" + redis.port() + "/0 answered with ")
                            .hasMessageContaining(hostile.getValue())
                            .hasMessageContaining("check that apiwarden.store names a Redis server");
                }
                assertThat(redis.connections())
                        .as(shown + ": a refused reply is not asked for again")
                        .isEqualTo(3);
            }
        }
    }

    @Test
    void aLeaseAnsweredWithAnythingButOkOrNilIsNoLease() throws Exception {
        for (String reply : List.of(":1\r\n", "+QUEUED\r\n", "*1\r\n$2\r\nOK\r\n")) {
            try (ScriptedRedisServer redis = new ScriptedRedisServer(ScriptedRedisServer.always(reply));
                    TokenStore store = store(redis)) {
                assertThat(failsAtOnce(() -> store.tryLease(Duration.ofSeconds(5))))
                        .as(reply.trim())
                        .hasMessageContaining("gave an unexpected reply to SET");
            }
        }
    }

    @Test
    void aScriptAnsweringNeitherZeroNorOneIsAStoreFailure() throws Exception {
        try (ScriptedRedisServer redis = new ScriptedRedisServer(ScriptedRedisServer.always(":7\r\n"));
                TokenStore store = store(redis)) {
            assertThat(failsAtOnce(() -> store.compareAndSet(STATE)))
                    .hasMessageContaining("unexpected reply to the compare-and-set script");
        }
    }

    @Test
    void theLargestStateTheStoreCanHoldIsStillRead() throws Exception {
        String token = "t".repeat(StateCodec.MAX_TOKEN_BYTES);
        TokenState largest =
                new TokenState(Long.MAX_VALUE, token, Instant.ofEpochMilli(1), Instant.ofEpochMilli(2), token);
        byte[] record = new StateCodec(null, null).encode("k", largest);
        String generation = Long.toString(Long.MAX_VALUE);
        String boundKey = generation + ":" + "k".repeat(43);
        byte[] reply = concat(
                "*3\r\n$" + generation.length() + "\r\n" + generation + "\r\n$" + record.length + "\r\n",
                record,
                "\r\n$" + boundKey.length() + "\r\n" + boundKey + "\r\n");
        try (ScriptedRedisServer redis = new ScriptedRedisServer(command -> reply);
                TokenStore store = store(redis)) {
            assertThat(store.read()).isEqualTo(largest.boundTo("k".repeat(43)));
        }
    }

    @Test
    void theFleetWindowsThreadLivesThroughHostileRepliesAndTriesAgain() throws Exception {
        RedisStoreSettings settings = RedisTestSettings.of("redis://127.0.0.1:1");
        String key = settings.throttleKey(URI.create("https://api.example.com/v1"));
        String hello = "*3\r\n$9\r\nsubscribe\r\n$" + key.length() + "\r\n" + key + "\r\n:1\r\n";
        // The window in force answered 200,000 arrays deep; then, on the channel, a message announcing 2,000,000,000
        // bytes.
        for (String[] answers : List.of(new String[] {"*1\r\n".repeat(200_000), hello}, new String[] {
            ":-2\r\n", hello + "*3\r\n$7\r\nmessage\r\n$" + key.length() + "\r\n" + key + "\r\n$2000000000\r\n"
        })) {
            try (ScriptedRedisServer redis =
                            new ScriptedRedisServer(command -> (command.get(0).equals("PTTL")
                                            ? answers[0]
                                            : command.get(0).equals("SUBSCRIBE") ? answers[1] : "+PONG\r\n")
                                    .getBytes(StandardCharsets.ISO_8859_1));
                    RedisThrottleWindow window =
                            new RedisThrottleWindow(RedisTestSettings.of(redis.url()), key, Runnable::run, scheduler)) {
                window.listen(heard -> {});
                // The first try waits 1 s before the next: a second connection means the thread lived.
                Eventually.await("the window to connect again", () -> redis.connections() >= 2);
            }
        }
    }

    private static byte[] concat(String head, byte[] body, String tail) {
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + body.length + t.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(body, 0, all, h.length, body.length);
        System.arraycopy(t, 0, all, h.length + body.length, t.length);
        return all;
    }
}
