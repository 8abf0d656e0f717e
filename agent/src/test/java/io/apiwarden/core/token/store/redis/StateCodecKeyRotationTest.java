package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's encryption key rotated as Kubernetes does it (the {@code ..data} link swap) across a fleet whose JVMs
 * see the new file at different moments, on an injected clock: written with the newest key, read with it or the one
 * before.
 */
class StateCodecKeyRotationTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final String PROPERTY = "apiwarden.store.encryption-key-file";
    private static final String STATE_KEY = "apiwarden:0123456789abcdef:state";
    private static final TokenState STATE = new TokenState(7, "access-x", null, null, "refresh-x");

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();

    private static String key(int fill) {
        byte[] key = new byte[32];
        Arrays.fill(key, (byte) fill);
        return Base64.getEncoder().encodeToString(key);
    }

    /** One JVM's view of the key: its own mount of the Secret, which the kubelet updates when it gets to it. */
    private final class Jvm {
        final KubernetesSecretMount mount;
        final StateCodec codec;

        Jvm(String name, String key) throws Exception {
            Path root = Files.createDirectory(folder.resolve(name));
            mount = new KubernetesSecretMount(root);
            Path file = mount.mount("store-key", key);
            codec = StateCodec.following(
                    ReloadableSecret.open(PROPERTY, file, StateCodec::keyOf, clock, INTERVAL), new SecureRandom());
        }

        void rotateTo(String key) throws Exception {
            mount.update("store-key", key);
        }
    }

    @Test
    void afterARotationRecordsAreWrittenWithTheNewKeyAndThoseWrittenBeforeStillOpen() throws Exception {
        Jvm jvm = new Jvm("a", key(1));
        byte[] before = jvm.codec.encode(STATE_KEY, STATE);

        jvm.rotateTo(key(2));
        clock.advance(INTERVAL);
        byte[] after = jvm.codec.encode(STATE_KEY, STATE);

        assertThat(jvm.codec.decode(STATE_KEY, 7, before)).isEqualTo(STATE);
        assertThat(jvm.codec.decode(STATE_KEY, 7, after)).isEqualTo(STATE);
        assertThat(new StateCodec(Base64.getDecoder().decode(key(2)), new SecureRandom()).decode(STATE_KEY, 7, after))
                .as("written with the new key")
                .isEqualTo(STATE);
    }

    @Test
    void aJvmThatMeetsARecordItCannotOpenLooksAtItsKeyFileAtOnce() throws Exception {
        Jvm first = new Jvm("a", key(1));
        Jvm late = new Jvm("b", key(1));
        first.rotateTo(key(2));
        clock.advance(INTERVAL);
        byte[] sealedWithTheNewKey = first.codec.encode(STATE_KEY, STATE);

        assertThatThrownBy(() -> late.codec.decode(STATE_KEY, 7, sealedWithTheNewKey))
                .as("its kubelet has not updated its mount yet")
                .isInstanceOf(StoreUnavailableException.class);
        assertThat(first.codec.decode(STATE_KEY, 7, late.codec.encode(STATE_KEY, STATE)))
                .as("the late JVM still writes with the old key, which the first one keeps for reading")
                .isEqualTo(STATE);

        late.rotateTo(key(2));

        assertThat(late.codec.decode(STATE_KEY, 7, sealedWithTheNewKey))
                .as("no wait for the check interval")
                .isEqualTo(STATE);
    }

    @Test
    void onlyTheOneKeyBeforeIsKept() throws Exception {
        Jvm jvm = new Jvm("a", key(1));
        byte[] twoRotationsOld = jvm.codec.encode(STATE_KEY, STATE);
        jvm.rotateTo(key(2));
        clock.advance(INTERVAL);
        jvm.codec.encode(STATE_KEY, STATE);
        jvm.rotateTo(key(3));
        clock.advance(INTERVAL);

        assertThatThrownBy(() -> jvm.codec.decode(STATE_KEY, 7, twoRotationsOld))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("does not open with the key in " + PROPERTY + " (nor with the one before it)");
    }

    @Test
    void theSettingsNameTheKeyFileForTheStoreToFollow() throws Exception {
        Path file = Files.writeString(folder.resolve("store-key"), key(1));
        Map<String, String> properties = Map.of("apiwarden.store", "redis://localhost:6379", PROPERTY, file.toString());

        RedisStoreSettings settings = RedisStoreSettings.parse(properties::get).settings();

        assertThat(settings.encryptionKeyFile()).isEqualTo(file);
        assertThat(settings.encryptionKeyProperty()).isEqualTo(PROPERTY);
        assertThat(settings.checkInterval()).isEqualTo(INTERVAL);
    }

    @Test
    void aKeyFileThatTurnsBadKeepsTheLastGoodKeyWithOneWarningThatNeverQuotesIt() throws Exception {
        Jvm jvm = new Jvm("a", key(1));
        String shortKey = Base64.getEncoder().encodeToString(new byte[16]);

        try (LogCapture log = LogCapture.at("warn")) {
            jvm.rotateTo(shortKey);
            for (int i = 0; i < 3; i++) {
                clock.advance(INTERVAL);
                byte[] stored = jvm.codec.encode(STATE_KEY, STATE);
                assertThat(new StateCodec(Base64.getDecoder().decode(key(1)), new SecureRandom())
                                .decode(STATE_KEY, 7, stored))
                        .isEqualTo(STATE);
            }

            assertThat(log.text().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("WARN", PROPERTY, "16-byte key")
                    .doesNotContain(shortKey));
        }
    }
}
