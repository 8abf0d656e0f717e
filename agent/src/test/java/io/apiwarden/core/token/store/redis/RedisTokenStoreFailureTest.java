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

/** A Redis that is down, hung, slow or restarted: every operation ends within the store's time-out, as a StoreUnavailableException. */
class RedisTokenStoreFailureTest {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/token");
    private static final Duration TIMEOUT = Duration.ofMillis(400);
    /** What a loaded 2-core machine may add to a time-out before the failure reaches the caller. */
    private static final Duration SLACK = Duration.ofMillis(300);

    private static final TokenState STATE = new TokenState(1, "access-77f1", null, null, "refresh-77f1");

    private static TokenStore store(String url, String... more) {
        List<String> properties = new ArrayList<>(List.of("apiwarden.store.timeout", "400ms"));
        properties.addAll(List.of(more));
        return new RedisTokenStore(
                RedisTestSettings.of(url, properties.toArray(new String[0])), TOKEN_URL, "failing-client");
    }

    /** Runs {@code operation}, which must fail as unavailable, and returns the failure and how long it took. */
    private static Failure fails(Executable operation) {
        // Preemptive, so that a store that does hang fails the test instead of holding the build.
        return assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            long start = System.nanoTime();
            StoreUnavailableException e = assertThrows(StoreUnavailableException.class, operation);
            return new Failure(e, Duration.ofNanos(System.nanoTime() - start));
        });
    }

    private static final class Failure {
        final StoreUnavailableException exception;
        final Duration took;

        Failure(StoreUnavailableException exception, Duration took) {
            this.exception = exception;
            this.took = took;
        }
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
                Failure f = fails(operation);
                assertThat(f.took).isLessThan(TIMEOUT);
                assertThat(f.exception)
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
                Failure f = fails(operation);
                assertThat(f.took).isBetween(TIMEOUT, TIMEOUT.plus(SLACK));
                assertThat(f.exception).hasMessageContaining("did not answer within 400ms (apiwarden.store.timeout)");
            }
            assertThat(silent.connections())
                    .as("a new connection for each operation after a failure")
                    .isEqualTo(3);
        }
    }

    @Test
    void aReplyThatTricklesInIsCutOffAtTheTimeoutNotAtEachRead() throws Exception {
        // One byte every 50 ms: each read is far within a 400 ms socket time-out, and the reply never ends.
        try (TricklingServer trickling = new TricklingServer(Duration.ofMillis(50));
                TokenStore plain = store("redis://127.0.0.1:" + trickling.port());
                TokenStore withLogIn = store("redis://someone:secret-pw@127.0.0.1:" + trickling.port() + "/4")) {
            for (TokenStore store : List.of(plain, withLogIn)) {
                Failure f = fails(store::read);
                assertThat(f.took).isBetween(TIMEOUT, TIMEOUT.plus(SLACK));
                assertThat(f.exception).hasMessageContaining("did not answer within 400ms");
            }
        }
    }

    @Test
    void aTlsHandshakeThatNeverEndsFailsWithinTheTimeout() throws Exception {
        try (SilentServer silent = new SilentServer();
                TokenStore store = store("rediss://127.0.0.1:" + silent.port())) {
            Failure f = fails(store::read);
            assertThat(f.took).isBetween(TIMEOUT, TIMEOUT.plus(SLACK));
            assertThat(f.exception)
                    .hasMessage("the token store at rediss 127.0.0.1:" + silent.port()
                            + "/0 did not answer within 400ms (apiwarden.store.timeout)");
        }
    }

    @Test
    void callersQueuedBehindAHungOperationEachFailWithinTheirOwnTimeout() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(3);
        try (SilentServer silent = new SilentServer();
                TokenStore store = store("redis://127.0.0.1:" + silent.port())) {
            List<Future<Failure>> failures = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                failures.add(callers.submit(() -> fails(store::read)));
            }
            for (Future<Failure> f : failures) {
                Failure failure = f.get(10, TimeUnit.SECONDS);
                assertThat(failure.took).isLessThanOrEqualTo(TIMEOUT.plus(SLACK));
                assertThat(failure.exception).hasMessageContaining("400ms");
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
                Failure f = fails(operation);
                assertThat(f.took).isLessThan(TIMEOUT.plus(SLACK));
                assertThat(f.exception).hasMessageContaining("redis 127.0.0.1:" + redis.port() + "/0");
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
                assertThat(fails(operation).exception).hasMessageContaining("is closed");
            }
        }
    }
}
