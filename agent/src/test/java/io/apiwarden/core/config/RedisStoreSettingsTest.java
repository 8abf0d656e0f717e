package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.token.Grant;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading apiwarden.store*: what is accepted, and problems that name the property and never the secret. */
class RedisStoreSettingsTest {
    private static final String PASSWORD = "hunter2-Secret";

    @TempDir
    Path dir;

    private static RedisStoreSettings.Parsed parse(String url, String... more) {
        return RedisTestSettings.parse(url, more);
    }

    private static String onlyProblem(RedisStoreSettings.Parsed parsed) {
        assertThat(parsed.settings()).isNull();
        assertThat(parsed.problems()).hasSize(1);
        return parsed.problems().get(0);
    }

    @Test
    void unsetMeansNoStoreAndNoProblem() {
        RedisStoreSettings.Parsed parsed = RedisStoreSettings.parse(Map.<String, String>of()::get);

        assertThat(parsed.settings()).isNull();
        assertThat(parsed.problems()).isEmpty();
    }

    @Test
    void aFullUrlIsReadPartByPart() {
        RedisStoreSettings s = RedisTestSettings.of("rediss://app:p%40ss%3Aw%2Bo+rd@cache.example.com:6380/2");

        assertThat(s.tls()).isTrue();
        assertThat(s.host()).isEqualTo("cache.example.com");
        assertThat(s.port()).isEqualTo(6380);
        assertThat(s.database()).isEqualTo(2);
        assertThat(s.user()).isEqualTo("app");
        assertThat(s.password()).isEqualTo("p@ss:w+o+rd");
        assertThat(s.describe()).isEqualTo("rediss cache.example.com:6380/2");
        assertThat(s.toString()).doesNotContain("app", "p@ss", "p%40ss").contains("password=<set>");
    }

    @Test
    void portDatabaseAndTimeoutHaveDefaults() {
        RedisStoreSettings s = RedisTestSettings.of("redis://127.0.0.1");

        assertThat(s.tls()).isFalse();
        assertThat(s.port()).isEqualTo(6379);
        assertThat(s.database()).isZero();
        assertThat(s.user()).isNull();
        assertThat(s.password()).isNull();
        assertThat(s.timeout())
                .isEqualTo(Duration.ofMillis(500))
                .isEqualTo(Durations.parse(ConfigProperty.STORE_TIMEOUT.defaultValue()));
        assertThat(s.encrypted()).isFalse();
    }

    @Test
    void anIpv6HostIsDescribedInBrackets() {
        assertThat(RedisTestSettings.of("redis://[::1]:7000/1").describe()).isEqualTo("redis [::1]:7000/1");
    }

    @Test
    void aUrlThatIsNotRedisOrNotAUrlIsAProblemThatQuotesNoPassword() {
        assertThat(onlyProblem(parse("http://cache:6379")))
                .startsWith("apiwarden.store (or APIWARDEN_STORE) is not a Redis URL");
        assertThat(onlyProblem(parse("redis://:" + PASSWORD + " x@cache")))
                .startsWith("apiwarden.store (or APIWARDEN_STORE) is not a valid URL")
                .doesNotContain(PASSWORD);
        assertThat(onlyProblem(parse("redis://:" + PASSWORD + "#@cache")))
                .contains("has a query or fragment", "percent-encoded")
                .doesNotContain(PASSWORD);
        assertThat(onlyProblem(parse("redis://:" + PASSWORD + "@cache/zero")))
                .contains("a path that is not a database number")
                .doesNotContain(PASSWORD);
        assertThat(onlyProblem(parse("redis://:" + PASSWORD + "@my_cache:6379")))
                .contains("has no host name")
                .doesNotContain(PASSWORD);
    }

    @Test
    void aPortNoServerCanListenOnIsAStartUpProblemNamingThePort() {
        for (String port : new String[] {"99999", "0", "65536", "99999999999"}) {
            assertThat(onlyProblem(parse("redis://:" + PASSWORD + "@cache:" + port + "/1")))
                    .as(port)
                    .startsWith(
                            "apiwarden.store (or APIWARDEN_STORE) has port " + port + ", which no server can listen on "
                                    + "(ports go from 1 to 65535; none means Redis's 6379): write it as redis://")
                    .doesNotContain(PASSWORD);
        }
        assertThat(onlyProblem(parse("rediss://[::1]:70000"))).contains("has port 70000");
        // Without its @, a password sits where the port goes: it is not quoted.
        assertThat(onlyProblem(parse("redis://cache:" + PASSWORD)))
                .contains("has a port that is not a number")
                .doesNotContain(PASSWORD);
        assertThat(RedisTestSettings.of("redis://cache:65535").port()).isEqualTo(65535);
        assertThat(RedisTestSettings.of("redis://cache:1").port()).isEqualTo(1);
    }

    @Test
    void theTimeoutMustBeAboveZeroAndAtMostTenSeconds() {
        assertThat(RedisTestSettings.of("redis://cache", "apiwarden.store.timeout", "250ms")
                        .timeout())
                .isEqualTo(Duration.ofMillis(250));
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.timeout", "0ms")))
                .startsWith(
                        "apiwarden.store.timeout (or APIWARDEN_STORE_TIMEOUT) is 0ms: give a duration above zero and at most 10s");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.timeout", "11s")))
                .contains("at most 10s");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.timeout", "fast")))
                .contains("is not a duration");
    }

    @Test
    void thePasswordComesFromTheUrlOrItsFileNeverBoth() throws Exception {
        Path file = Files.writeString(dir.resolve("password"), PASSWORD + "\n");

        RedisStoreSettings fromFile =
                RedisTestSettings.of("redis://app@cache", "apiwarden.store.password-file", file.toString());
        assertThat(fromFile.user()).isEqualTo("app");
        assertThat(fromFile.password()).isEqualTo(PASSWORD);

        assertThat(onlyProblem(parse("redis://:other@cache", "apiwarden.store.password-file", file.toString())))
                .isEqualTo("both apiwarden.store and apiwarden.store.password-file give a password: keep one of them");
        assertThat(onlyProblem(parse("redis://app@cache")))
                .contains("names a user but no password", "apiwarden.store.password-file");
    }

    @Test
    void anUnusablePasswordFileIsAProblemNamingIt() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty"));
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.password-file", empty.toString())))
                .contains("apiwarden.store.password-file", empty.toString(), "is empty: put the password in it");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.password-file", dir.toString())))
                .contains("apiwarden.store.password-file", "is a folder");
        assertThat(onlyProblem(parse(
                        "redis://cache",
                        "apiwarden.store.password-file",
                        dir.resolve("missing").toString())))
                .startsWith("cannot read apiwarden.store.password-file");
    }

    @Test
    void theEncryptionKeyIs32BytesInBase64() throws Exception {
        Path good = Files.writeString(dir.resolve("key"), Base64.getEncoder().encodeToString(new byte[32]) + "\n");
        Path short16 =
                Files.writeString(dir.resolve("short"), Base64.getEncoder().encodeToString(new byte[16]));
        byte[] rawKey = new byte[32];
        for (int i = 0; i < rawKey.length; i++) {
            rawKey[i] = (byte) (0x80 + i);
        }
        Path raw = Files.write(dir.resolve("raw"), rawKey);

        RedisStoreSettings s =
                RedisTestSettings.of("redis://cache", "apiwarden.store.encryption-key-file", good.toString());
        assertThat(s.encrypted()).isTrue();
        assertThat(s.encryptionKey()).hasSize(32);
        assertThat(s.toString()).contains("encryption=AES-256-GCM");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.encryption-key-file", short16.toString())))
                .contains("holds a 16-byte key: AES-256 takes 32 bytes");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.encryption-key-file", raw.toString())))
                .contains("does not hold base64", "openssl rand -base64 32");
    }

    @Test
    void aKeyPrefixMustBeShortVisibleAscii() {
        assertThat(RedisTestSettings.of("redis://cache", "apiwarden.store.key", "myapp:prod")
                        .keyPrefix(URI.create("https://auth/token"), "c"))
                .isEqualTo("myapp:prod");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.key", "my app")))
                .contains("visible ASCII characters");
        assertThat(onlyProblem(parse("redis://cache", "apiwarden.store.key", "k".repeat(201))))
                .contains("at most 200");
    }

    @Test
    void theDerivedPrefixDependsOnTokenUrlAndClientIdAsTheServerSeesThem() {
        URI url = URI.create("https://auth.example.com/oauth/token");
        String prefix = RedisStoreSettings.derivedKeyPrefix(url, "client-a");

        assertThat(prefix).matches("apiwarden:[0-9a-f]{16}");
        assertThat(RedisStoreSettings.derivedKeyPrefix(
                        URI.create("HTTPS://Auth.Example.COM:443/oauth/token"), "client-a"))
                .isEqualTo(prefix);
        assertThat(RedisStoreSettings.derivedKeyPrefix(url, "client-b")).isNotEqualTo(prefix);
        assertThat(RedisStoreSettings.derivedKeyPrefix(URI.create("https://auth.example.com/oauth/token2"), "client-a"))
                .isNotEqualTo(prefix);
        assertThat(RedisStoreSettings.derivedKeyPrefix(url, null)).isNotEqualTo(prefix);
    }

    @Test
    void clientCredentialsKeepTheirTokensApartFromTheRefreshGrantsAndFromOtherScopes() {
        URI url = URI.create("https://auth.example.com/oauth/token");
        String refreshGrant = RedisStoreSettings.derivedKeyPrefix(url, "client-a");
        Grant noScope = Grant.clientCredentials(null);
        Grant read = Grant.clientCredentials("read");

        assertThat(RedisStoreSettings.derivedKeyPrefix(
                        url, "client-a", Grant.refreshToken(null).storeIdentity()))
                .as("a running fleet keeps its keys")
                .isEqualTo(refreshGrant);
        assertThat(RedisStoreSettings.derivedKeyPrefix(url, "client-a", noScope.storeIdentity()))
                .isNotEqualTo(refreshGrant);
        assertThat(RedisStoreSettings.derivedKeyPrefix(url, "client-a", read.storeIdentity()))
                .isNotEqualTo(RedisStoreSettings.derivedKeyPrefix(url, "client-a", noScope.storeIdentity()))
                .isNotEqualTo(refreshGrant);
    }

    @Test
    void warningsForCleartextAcrossTheNetworkAndForTokensStoredInTheClear() throws Exception {
        Path key = Files.writeString(dir.resolve("key"), Base64.getEncoder().encodeToString(new byte[32]));

        assertThat(parse("redis://cache.internal:6379").warnings())
                .hasSize(2)
                .anyMatch(w -> w.contains("plain redis:// to cache.internal") && w.contains("use rediss://"))
                .anyMatch(w -> w.contains("unencrypted") && w.contains("apiwarden.store.encryption-key-file"));
        assertThat(parse("redis://127.0.0.1", "apiwarden.store.encryption-key-file", key.toString())
                        .warnings())
                .isEmpty();
        assertThat(parse("rediss://cache.internal", "apiwarden.store.encryption-key-file", key.toString())
                        .warnings())
                .isEmpty();
    }

    @Test
    void onlyRedisSchemesAreRedisUrls() {
        assertThat(RedisStoreSettings.isRedisUrl("redis://cache")).isTrue();
        assertThat(RedisStoreSettings.isRedisUrl(" REDISS://cache")).isTrue();
        assertThat(RedisStoreSettings.isRedisUrl("file:/var/lib/tokens")).isFalse();
        assertThat(RedisStoreSettings.isRedisUrl(null)).isFalse();
    }
}
