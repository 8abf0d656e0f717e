package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.core.token.store.TokenStoreContract;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The store contract on a real Redis, and what keys the Redis store keeps there. */
class RedisTokenStoreTest extends TokenStoreContract {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/oauth/token");
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    private static RedisServerProcess redis;
    private static RedisStoreSettings settings;

    /** The client of the store the current test opened: each test has its own keys in the one server. */
    private String client;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServerProcess.start();
        settings = RedisTestSettings.of(redis.url());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    @Override
    protected TokenStore newStore() {
        client = "client-" + CLIENTS.incrementAndGet();
        return new RedisTokenStore(settings, TOKEN_URL, client);
    }

    @Override
    protected TokenStore anotherHandle(TokenStore store) {
        return new RedisTokenStore(settings, TOKEN_URL, client);
    }

    @Test
    void theStateIsAHashWithAReadableGenerationAndTheLeaseExpiresOnTheServer() throws Exception {
        String prefix = settings.keyPrefix(TOKEN_URL, client);
        assertThat(a.compareAndSet(new TokenState(1, "access", null, null, "refresh")))
                .isTrue();
        assertThat(a.compareAndSet(new TokenState(2, "access", null, null, "refresh")))
                .isTrue();
        TokenStore.Lease lease = a.tryLease(Duration.ofSeconds(30));

        try (Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            assertThat(raw.type(prefix + ":state")).isEqualTo("hash");
            assertThat(raw.hget(prefix + ":state", "generation")).isEqualTo("2");
            assertThat(raw.get(prefix + ":lease"))
                    .startsWith(ProcessHandle.current().pid() + ":");
            assertThat(raw.pttl(prefix + ":lease")).isBetween(1L, 30_000L);
            assertThat(raw.keys(prefix + "*")).containsExactlyInAnyOrder(prefix + ":state", prefix + ":lease");
        }
        lease.release();
    }

    @Test
    void aStateWrittenByAnEarlierVersionOverABoundOneIsReadAsBoundToNoKnownKey() throws Exception {
        String prefix = settings.keyPrefix(TOKEN_URL, client);
        TokenState bound = new TokenState(1, "access-one", null, null, "refresh-one").boundTo("jkt-of-key-a");
        assertThat(a.compareAndSet(bound)).isTrue();
        assertThat(b.read().boundKey()).isEqualTo("jkt-of-key-a");

        // What an agent of an earlier version leaves when it writes the next state: its script sets the generation
        // and the record, and the bound key stays as the state before had it.
        assertThat(a.compareAndSet(new TokenState(2, "access-two", null, null, "refresh-two")))
                .isTrue();
        try (Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            raw.hset(prefix + ":state", "bound-key", "1:jkt-of-key-a");
        }

        assertThat(b.read().generation()).isEqualTo(2);
        assertThat(b.read().boundKey()).isNull();
    }

    @Test
    void twoOAuthClientsInOneRedisNeverShareStateOrLease() throws Exception {
        URI otherTokenUrl = URI.create("https://login.example.org/token");
        try (TokenStore otherClient = new RedisTokenStore(settings, TOKEN_URL, client + "-other");
                TokenStore otherService = new RedisTokenStore(settings, otherTokenUrl, client);
                TokenStore sameClientSpelledOtherwise =
                        new RedisTokenStore(settings, URI.create("HTTPS://Auth.Example.com:443/oauth/token"), client)) {
            TokenState mine = new TokenState(1, "access-mine", null, null, "refresh-mine");
            assertThat(a.compareAndSet(mine)).isTrue();
            TokenStore.Lease lease = a.tryLease(Duration.ofSeconds(30));

            assertThat(otherClient.read()).isNull();
            assertThat(otherService.read()).isNull();
            TokenStore.Lease theirs = otherClient.tryLease(Duration.ofSeconds(30));
            assertThat(theirs).isNotNull();
            assertThat(sameClientSpelledOtherwise.read()).isEqualTo(mine);
            assertThat(sameClientSpelledOtherwise.tryLease(Duration.ofSeconds(30)))
                    .isNull();
            theirs.release();
            lease.release();
        }
    }

    @Test
    void aKeyPrefixSetByHandIsUsedAsGiven() throws Exception {
        RedisStoreSettings custom = RedisTestSettings.of(redis.url(), "apiwarden.store.key", "myapp:prod:" + client);
        try (TokenStore store = new RedisTokenStore(custom, TOKEN_URL, client)) {
            assertThat(store.compareAndSet(new TokenState(1, "access", null, null, "refresh")))
                    .isTrue();
            assertThat(a.read()).as("the derived prefix is not used").isNull();
        }
        try (Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            assertThat(raw.exists(("myapp:prod:" + client + ":state").getBytes(StandardCharsets.UTF_8)))
                    .isTrue();
        }
    }

    @Test
    void describeNamesHostPortAndDatabaseOnly() {
        RedisStoreSettings withCredentials =
                RedisTestSettings.of("redis://someone:hunter2-pass@127.0.0.1:" + redis.port() + "/3");
        try (TokenStore store = new RedisTokenStore(withCredentials, TOKEN_URL, client)) {
            assertThat(store.describe()).isEqualTo("redis 127.0.0.1:" + redis.port() + "/3");
            assertThat(store.toString()).doesNotContain("someone", "hunter2");
        }
    }
}
