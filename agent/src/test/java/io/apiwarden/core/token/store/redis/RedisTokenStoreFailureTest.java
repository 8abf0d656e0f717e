package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.testing.RedisServerProcess;
import io.apiwarden.testing.SilentServer;
import io.apiwarden.testing.TricklingServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A Redis that is down, hung, slow or restarted: every operation ends as a StoreUnavailableException that
 * says why, a wait naming the store's time-out. The cases assert what ended the operation, never how long
 * it took: that every step is given only what is left of the operation's time-out is {@link
 * DeadlineSocketsTest}'s, on the sockets themselves.
 */
class RedisTokenStoreFailureTest {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/token");
    /** What the store says when its time-out ended an operation on the wire. */
    private static final String NO_ANSWER = "did not answer within 400ms (apiwarden.store.timeout)";
    /** What it says when the time-out ran out while the operation waited for its turn behind another. */
    private static final String BUSY = "is busy: another operation of this JVM did not end within 400ms";

    private static final TokenState STATE = new TokenState(1, "access-77f1", null, null, "refresh-77f1");

    private static TokenStore store(String url, String... more) {
        List<String> properties = new ArrayList<>(List.of("apiwarden.store.timeout", "400ms"));
        properties.addAll(List.of(more));
        return new RedisTokenStore(
                RedisTestSettings.of(url, properties.toArray(new String[0])), TOKEN_URL, "failing-client");
    }

    /**
     * Runs {@code operation}, which must fail as unavailable, and returns the failure. Preemptive, so that a
     * store that does hang fails the test instead of holding the build: a patience, far above the time-out.
     */
    private static StoreUnavailableException fails(Executable operation) {
        return assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> assertThrows(StoreUnavailableException.class, operation));
    }

    private static List<Executable> everyOperation(TokenStore store) {
        return List.of(store::read, () -> store.compareAndSet(STATE), () -> store.tryLease(Duration.ofSeconds(5)));
    }

    @Test
    void aPortNobodyListensOnFailsAtOnce() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (TokenStore store = store("redis://127.0.0.1:" + port)) {
            for (Executable operation : everyOperation(store)) {
                // Refused, so not waited out: a time-out would say "did not answer".
                assertThat(fails(operation))
                        .hasMessage(
                                "the token store at redis 127.0.0.1:" + port
                                        + "/0 refused the connection: check that Redis runs there and that apiwarden.store names it");
            }
        }
    }

    @Test
    void aServerThatAcceptsAndNeverAnswersFailsWithinTheTimeout() throws Exception {
        try (SilentServer silent = new SilentServer();
                TokenStore store = store("redis://127.0.0.1:" + silent.port())) {
            for (Executable operation : everyOperation(store)) {
                assertThat(fails(operation)).hasMessageContaining(NO_ANSWER);
            }
            assertThat(silent.connections())
                    .as("a new connection for each operation after a failure")
                    .isEqualTo(3);
        }
    }

    @Test
    void aReplyThatTricklesInIsCutOffAtTheTimeoutNotAtEachRead() throws Exception {
        // One byte every 50 ms: each read is far within a 400 ms socket time-out, and the reply never ends. A
        // time-out of each read alone would never end the operation; the operation's own ends it.
        try (TricklingServer trickling = new TricklingServer(Duration.ofMillis(50));
                TokenStore plain = store("redis://127.0.0.1:" + trickling.port());
                TokenStore withLogIn = store("redis://someone:secret-pw@127.0.0.1:" + trickling.port() + "/4")) {
            for (TokenStore store : List.of(plain, withLogIn)) {
                assertThat(fails(store::read)).hasMessageContaining(NO_ANSWER);
            }
        }
    }

    @Test
    void aTlsHandshakeThatNeverEndsFailsWithinTheTimeout() throws Exception {
        try (SilentServer silent = new SilentServer();
                TokenStore store = store("rediss://127.0.0.1:" + silent.port())) {
            assertThat(fails(store::read))
                    .hasMessage("the token store at rediss 127.0.0.1:" + silent.port() + "/0 " + NO_ANSWER);
        }
    }

    @Test
    void callersQueuedBehindAHungOperationEachFailWithinTheirOwnTimeout() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (SilentServer silent = new SilentServer();
                TokenStore store = store("redis://127.0.0.1:" + silent.port())) {
            List<Future<StoreUnavailableException>> failures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                failures.add(callers.submit(() -> fails(store::read)));
            }
            // Each ended by its own time-out: on the wire, or waiting for its turn (the same deadline bounds both).
            for (Future<StoreUnavailableException> f : failures) {
                assertThat(f.get(10, TimeUnit.SECONDS).getMessage()).containsAnyOf(NO_ANSWER, BUSY);
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aKilledRedisIsUsedAgainAfterItRestartsWithoutANewStore() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start();
                TokenStore store = store(redis.url())) {
            assertThat(store.compareAndSet(STATE)).isTrue();

            redis.kill();
            for (Executable operation : everyOperation(store)) {
                assertThat(fails(operation)).hasMessageContaining("redis 127.0.0.1:" + redis.port() + "/0");
            }

            redis.restart();
            assertThat(store.read()).as("an empty Redis after the restart").isNull();
            assertThat(store.compareAndSet(STATE)).isTrue();
            assertThat(store.read()).isEqualTo(STATE);
        }
    }

    @Test
    void theFirstOperationAfterARestartSucceedsOnAConnectionKeptFromBefore() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start();
                TokenStore store = store(redis.url())) {
            assertThat(store.compareAndSet(STATE)).isTrue();

            redis.restart();

            assertThat(store.read()).isNull();
        }
    }

    @Test
    void aClosedStoreRefusesEveryOperation() throws Exception {
        try (RedisServerProcess redis = RedisServerProcess.start()) {
            TokenStore store = store(redis.url());
            assertThat(store.read()).isNull();
            store.close();
            for (Executable operation : everyOperation(store)) {
                assertThat(fails(operation)).hasMessageContaining("is closed");
            }
        }
    }
}
