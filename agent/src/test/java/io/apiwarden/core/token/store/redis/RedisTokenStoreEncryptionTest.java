package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.testing.RedisServerProcess;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** What lands in Redis with an encryption key set, and what happens when the key or the record is not the right one. */
class RedisTokenStoreEncryptionTest {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/token");
    private static final String ACCESS = "access-9f8e7d6c5b4a-token";
    private static final String REFRESH = "refresh-1a2b3c4d5e6f-token";
    private static final TokenState STATE = new TokenState(1, ACCESS, null, null, REFRESH);
    private static RedisServerProcess redis;
    private static int clients;

    @TempDir
    Path dir;

    private String client;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServerProcess.start();
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    @BeforeEach
    void newClient() {
        client = "sealed-" + ++clients;
    }

    private RedisStoreSettings withKey(String name) throws Exception {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path file = Files.writeString(dir.resolve(name), Base64.getEncoder().encodeToString(key) + "\n");
        return RedisTestSettings.of(redis.url(), "apiwarden.store.encryption-key-file", file.toString());
    }

    private static RedisStoreSettings withoutKey() {
        return RedisTestSettings.of(redis.url());
    }

    private TokenStore store(RedisStoreSettings settings) {
        return new RedisTokenStore(settings, TOKEN_URL, client);
    }

    private String stateKey() {
        return withoutKey().keyPrefix(TOKEN_URL, client) + ":state";
    }

    /** Every byte Redis holds for this client: key names, field names and values. */
    private byte[] everythingStored() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            for (byte[] key :
                    raw.keys((withoutKey().keyPrefix(TOKEN_URL, client) + "*").getBytes(StandardCharsets.UTF_8))) {
                all.writeBytes(key);
                if (raw.type(key).equals("hash")) {
                    raw.hgetAll(key).forEach((field, value) -> {
                        all.writeBytes(field);
                        all.writeBytes(value);
                    });
                } else {
                    all.writeBytes(raw.get(key));
                }
            }
        }
        return all.toByteArray();
    }

    private static boolean contains(byte[] haystack, String needle) {
        return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
    }

    @Test
    void withAKeyRedisHoldsNoTokenAndTheStateReadsBack() throws Exception {
        try (TokenStore store = store(withKey("key"))) {
            assertThat(store.compareAndSet(STATE)).isTrue();
            TokenStore.Lease lease = store.tryLease(Duration.ofSeconds(30));
            assertThat(lease).as("the lease's key is looked at too").isNotNull();

            byte[] stored = everythingStored();
            assertThat(contains(stored, "generation"))
                    .as("the generation stays readable")
                    .isTrue();
            assertThat(contains(stored, ACCESS.substring(7, 19))).isFalse();
            assertThat(contains(stored, REFRESH.substring(8, 20))).isFalse();
            assertThat(store.read()).isEqualTo(STATE);
            lease.release();
        }
    }

    @Test
    void withoutAKeyTheTokensAreThereToRead() throws Exception {
        try (TokenStore store = store(withoutKey())) {
            assertThat(store.compareAndSet(STATE)).isTrue();
        }
        byte[] stored = everythingStored();
        assertThat(contains(stored, ACCESS)).isTrue();
        assertThat(contains(stored, REFRESH)).isTrue();
    }

    @Test
    void eachWriteHasANonceOfItsOwn() throws Exception {
        try (TokenStore store = store(withKey("key"));
                Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            assertThat(store.compareAndSet(STATE)).isTrue();
            byte[] first =
                    raw.hget(stateKey().getBytes(StandardCharsets.UTF_8), "state".getBytes(StandardCharsets.UTF_8));
            assertThat(store.compareAndSet(STATE.next(ACCESS, null, null, REFRESH)))
                    .isTrue();
            byte[] second =
                    raw.hget(stateKey().getBytes(StandardCharsets.UTF_8), "state".getBytes(StandardCharsets.UTF_8));

            assertThat(first[0]).isEqualTo(StateCodec.SEALED);
            assertThat(Arrays.copyOfRange(first, 1, 1 + StateCodec.NONCE_BYTES))
                    .isNotEqualTo(Arrays.copyOfRange(second, 1, 1 + StateCodec.NONCE_BYTES));
        }
    }

    @Test
    void anotherKeyFailsClearlyAndQuotesNoToken() throws Exception {
        try (TokenStore writer = store(withKey("key"));
                TokenStore reader = store(withKey("other-key"))) {
            assertThat(writer.compareAndSet(STATE)).isTrue();

            assertThatThrownBy(reader::read)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage(
                            "the token state at " + stateKey()
                                    + " does not open with the key in apiwarden.store.encryption-key-file: "
                                    + "check that every JVM of this client has the same key (or the record was altered in Redis)")
                    .hasNoCause();
        }
    }

    @Test
    void aRecordChangedInRedisDoesNotOpen() throws Exception {
        RedisStoreSettings settings = withKey("key");
        try (TokenStore store = store(settings);
                Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            assertThat(store.compareAndSet(STATE)).isTrue();
            byte[] key = stateKey().getBytes(StandardCharsets.UTF_8);
            byte[] field = "state".getBytes(StandardCharsets.UTF_8);
            byte[] sealed = raw.hget(key, field);

            byte[] flipped = sealed.clone();
            flipped[flipped.length - 20] ^= 1;
            raw.hset(key, field, flipped);
            assertThatThrownBy(store::read).hasMessageContaining("does not open with the key");

            raw.hset(key, field, sealed);
            assertThat(store.read()).as("the original opens again").isEqualTo(STATE);
            raw.hset(stateKey(), "generation", "7");
            assertThatThrownBy(store::read)
                    .as("the generation is bound to the sealed tokens")
                    .hasMessageContaining("does not open with the key");
        }
    }

    @Test
    void aRecordCopiedToAnotherClientsKeyDoesNotOpenThere() throws Exception {
        RedisStoreSettings settings = withKey("key");
        String otherClient = client + "-other";
        try (TokenStore store = store(settings);
                TokenStore other = new RedisTokenStore(settings, TOKEN_URL, otherClient);
                Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            assertThat(store.compareAndSet(STATE)).isTrue();
            Map<byte[], byte[]> record = raw.hgetAll(stateKey().getBytes(StandardCharsets.UTF_8));
            raw.hset((settings.keyPrefix(TOKEN_URL, otherClient) + ":state").getBytes(StandardCharsets.UTF_8), record);

            assertThatThrownBy(other::read).hasMessageContaining("does not open with the key");
        }
    }

    @Test
    void anEncryptedRecordReadWithoutAKeyNamesTheSetting() throws Exception {
        try (TokenStore writer = store(withKey("key"));
                TokenStore reader = store(withoutKey())) {
            assertThat(writer.compareAndSet(STATE)).isTrue();

            assertThatThrownBy(reader::read)
                    .hasMessage(
                            "the token state at " + stateKey()
                                    + " is encrypted: set apiwarden.store.encryption-key-file to the key the other JVMs of this client use");
        }
    }

    @Test
    void aRecordInTheClearIsRefusedWhenAKeyIsSet() throws Exception {
        try (TokenStore writer = store(withoutKey());
                TokenStore reader = store(withKey("key"))) {
            assertThat(writer.compareAndSet(STATE)).isTrue();

            assertThatThrownBy(reader::read)
                    .hasMessageContaining("is not encrypted, but apiwarden.store.encryption-key-file is set")
                    .hasMessageNotContaining(ACCESS)
                    .hasMessageNotContaining(REFRESH);
        }
    }
}
