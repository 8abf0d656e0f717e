package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** A server's DPoP nonce in a real Redis: one key per server, outliving no more than a day. */
class RedisDpopNonceTest {
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/oauth/token");
    private static final URI API = URI.create("https://api.example.com/v1");

    private static RedisServerProcess redis;
    private static RedisStoreSettings settings;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServerProcess.start();
        settings = RedisTestSettings.of(redis.url());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    @Test
    void aNonceWrittenByOneJvmIsReadByAnotherAndExpiresWithinADay() throws Exception {
        String key = settings.dpopNonceKey(API, false);
        try (RedisDpopNonce one = new RedisDpopNonce(settings, key);
                RedisDpopNonce other = new RedisDpopNonce(settings, key);
                Jedis jedis = new Jedis(URI.create(redis.url()))) {
            assertThat(other.read()).isNull();

            one.write("n-1.a_b~c");

            assertThat(other.read()).isEqualTo("n-1.a_b~c");
            assertThat(jedis.pttl(key)).isBetween(1L, RedisDpopNonce.TIME_TO_LIVE.toMillis());
            assertThat(other.toString()).contains(key).doesNotContain("n-1");
        }
    }

    @Test
    void theTokenEndpointsNonceAndTheApisAreApartOverOneConnection() throws Exception {
        URI otherApi = URI.create("https://api.example.com/v2");
        try (RedisDpopNonce api = new RedisDpopNonce(settings, settings.dpopNonceKey(otherApi, false));
                Jedis jedis = new Jedis(URI.create(redis.url()))) {
            RedisDpopNonce tokenEndpoint = api.at(settings.dpopNonceKey(TOKEN_URL, true));
            long before = jedis.clientList().lines().count();

            tokenEndpoint.write("tn-1");
            api.write("an-1");

            assertThat(tokenEndpoint.read()).isEqualTo("tn-1");
            assertThat(api.read()).isEqualTo("an-1");
            assertThat(jedis.clientList().lines().count()).isEqualTo(before + 1);
        }
    }

    @Test
    void theTokenEndpointAndTheApiHaveAKeyEachAndAnExplicitKeyPrefixKeepsThemApart() {
        assertThat(settings.dpopNonceKey(TOKEN_URL, true))
                .isNotEqualTo(settings.dpopNonceKey(API, false))
                .isNotEqualTo(settings.dpopNonceKey(TOKEN_URL, false))
                .isNotEqualTo(settings.dpopNonceKey(URI.create("https://other.example.com/token"), true))
                .isEqualTo(settings.dpopNonceKey(URI.create("HTTPS://Auth.Example.com:443/oauth/token"), true))
                .startsWith("apiwarden:")
                .endsWith(":token-dpop-nonce");

        RedisStoreSettings named = RedisTestSettings.of(redis.url(), "apiwarden.store.key", "orders");
        assertThat(named.dpopNonceKey(TOKEN_URL, true)).isEqualTo("orders:token-dpop-nonce");
        assertThat(named.dpopNonceKey(API, false)).isEqualTo("orders:api-dpop-nonce");
    }
}
