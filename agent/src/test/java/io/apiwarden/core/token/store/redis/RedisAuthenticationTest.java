package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.RedisTestSettings;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.testing.RedisServerProcess;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** A Redis that asks for a password, and Redis's refusals turned into messages that say what to check. */
class RedisAuthenticationTest {
    private static final String PASSWORD = "s3cret-Pa55-word";
    private static final URI TOKEN_URL = URI.create("https://auth.example.com/token");
    private static final TokenState STATE = new TokenState(1, "access-a1", null, null, "refresh-a1");
    private static RedisServerProcess redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startRedis() throws Exception {
        redis = RedisServerProcess.start(
                "--requirepass",
                PASSWORD,
                // What docs/security.md says the agent needs, on its keys only.
                "--user",
                "agent",
                "on",
                ">" + PASSWORD,
                "~apiwarden:*",
                "+hmget",
                "+set",
                "+eval",
                "+hget",
                "+hset",
                "+get",
                "+pexpire",
                "+del",
                "--user",
                "no-renewals",
                "on",
                ">" + PASSWORD,
                "~apiwarden:*",
                "+hmget",
                "+set",
                "+eval",
                "+hget",
                "+hset",
                "+get",
                "+del");
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    private String url(String credentials) {
        return "redis://" + credentials + "127.0.0.1:" + redis.port();
    }

    private static TokenStore store(RedisStoreSettings settings, String client) {
        return new RedisTokenStore(settings, TOKEN_URL, client);
    }

    @Test
    void thePasswordInTheUrlOrInItsFileLogsIn() throws Exception {
        Path file = Files.writeString(dir.resolve("redis-password"), PASSWORD + "\n");
        for (RedisStoreSettings settings : new RedisStoreSettings[] {
            RedisTestSettings.of(url(":" + PASSWORD + "@")),
            RedisTestSettings.of(url("default:" + PASSWORD + "@")),
            RedisTestSettings.of(url(""), "apiwarden.store.password-file", file.toString()),
            RedisTestSettings.of(url("default@"), "apiwarden.store.password-file", file.toString())
        }) {
            try (TokenStore store = store(settings, "logs-in-" + System.nanoTime())) {
                assertThat(store.compareAndSet(STATE)).as(settings.toString()).isTrue();
                assertThat(store.read()).isEqualTo(STATE);
                assertThat(store.toString()).doesNotContain(PASSWORD);
            }
        }
    }

    @Test
    void aUserWithTheCommandsTheSecurityNotesListCanDoEverything() throws Exception {
        try (TokenStore store = store(RedisTestSettings.of(url("agent:" + PASSWORD + "@")), "acl-user")) {
            assertThat(store.compareAndSet(STATE)).isTrue();
            assertThat(store.read()).isEqualTo(STATE);
            TokenStore.Lease lease = store.tryLease(Duration.ofSeconds(30));
            assertThat(lease.renew()).isTrue();
            lease.release();
            assertThat(store.tryLease(Duration.ofSeconds(30))).as("released").isNotNull();
        }
        try (TokenStore outside = store(
                RedisTestSettings.of(url("agent:" + PASSWORD + "@"), "apiwarden.store.key", "other:x"), "acl-user")) {
            assertThatThrownBy(outside::read).hasMessageContaining("does not let this user run the store's commands");
        }
    }

    @Test
    void aMissingPermissionInsideAScriptIsReportedAsSuch() throws Exception {
        try (TokenStore store = store(RedisTestSettings.of(url("no-renewals:" + PASSWORD + "@")), "acl-no-renewals")) {
            TokenStore.Lease lease = store.tryLease(Duration.ofSeconds(30));
            assertThatThrownBy(lease::renew)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("does not let this user run the store's commands");
        }
    }

    @Test
    void noPasswordIsReportedAsSuch() {
        try (TokenStore store = store(RedisTestSettings.of(url("")), "no-password")) {
            assertThatThrownBy(store::read)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessage("the token store at redis 127.0.0.1:" + redis.port()
                            + "/0 asks for a password: give it in apiwarden.store or apiwarden.store.password-file");
        }
    }

    @Test
    void aWrongPasswordIsReportedWithoutQuotingIt() {
        try (TokenStore store = store(RedisTestSettings.of(url(":not-the-password-9@")), "wrong-password")) {
            assertThatThrownBy(store::read)
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("refused the user name or password")
                    .hasMessageNotContaining("not-the-password-9")
                    .hasNoCause();
        }
    }

    @Test
    void aRotatedPasswordFileIsUsedByTheNextConnection() throws Exception {
        Path file = Files.writeString(dir.resolve("redis-password"), "rotating-1\n");
        try (Jedis admin = new Jedis("127.0.0.1", redis.port())) {
            admin.auth(PASSWORD);
            admin.aclSetUser("rotating", "on", ">rotating-1", "~apiwarden:*", "+@all");
            RedisStoreSettings settings = RedisTestSettings.followingPasswordFile(
                    RedisTestSettings.of(url("rotating@"), "apiwarden.store.password-file", file.toString()), file);
            try (TokenStore store = store(settings, "rotating")) {
                assertThat(store.compareAndSet(STATE)).isTrue();

                // Rotated at the server and in the file; the open connection is cut, as a restart of Redis would.
                admin.aclSetUser("rotating", "resetpass", ">rotating-2");
                Files.writeString(file, "rotating-2\n");
                admin.clientKill(new redis.clients.jedis.params.ClientKillParams().user("rotating"));

                assertThat(store.read()).isEqualTo(STATE);
                assertThat(store.toString()).doesNotContain("rotating-2");
            }
        }
    }

    @Test
    void everyLinkToOneStoreLogsInWithOnePasswordFollower() throws Exception {
        Path file = Files.writeString(dir.resolve("redis-password"), "shared-1\n");
        RedisStoreSettings settings = RedisTestSettings.followingPasswordFile(
                RedisTestSettings.of(url("shared@"), "apiwarden.store.password-file", file.toString()), file);

        // The token store's link, the nonces' and the rate-limit window's: one look at the file, one info line.
        try (RedisLink tokens = new RedisLink(settings);
                RedisLink nonces = new RedisLink(settings)) {
            assertThat(nonces.clientConfig()).isSameAs(tokens.clientConfig());
            assertThat(tokens.clientConfig().getCredentialsProvider().get().getPassword())
                    .isEqualTo("shared-1".toCharArray());
        }
    }

    @Test
    void aKeyThatAnotherProgramUsesIsReportedAsSuch() throws Exception {
        RedisStoreSettings settings = RedisTestSettings.of(url(":" + PASSWORD + "@"));
        try (Jedis raw = new Jedis("127.0.0.1", redis.port())) {
            raw.auth(PASSWORD);
            raw.set(settings.keyPrefix(TOKEN_URL, "squatted") + ":state", "someone else's");
        }
        try (TokenStore store = store(settings, "squatted")) {
            assertThatThrownBy(store::read).hasMessageContaining("holds a value of another kind under the store's key");
            assertThatThrownBy(() -> store.compareAndSet(STATE)).hasMessageContaining("set apiwarden.store.key");
        }
    }

    @Test
    void aDatabaseThatDoesNotExistIsReportedAsSuch() {
        try (TokenStore store = store(RedisTestSettings.of(url(":" + PASSWORD + "@") + "/99"), "no-such-db")) {
            assertThatThrownBy(store::read)
                    .hasMessageContaining("has no database with the number at the end of apiwarden.store");
        }
    }
}
