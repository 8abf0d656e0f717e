package io.apiwarden.core.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.testing.MutableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret file followed as it changes: Kubernetes' link swap, the check interval, bad files, reads counted. */
class ReloadableSecretTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();
    private final AtomicInteger parses = new AtomicInteger();

    private ReloadableSecret<String> follow(Path file) throws IOException {
        return ReloadableSecret.open(
                "apiwarden.client-secret-file",
                file,
                bytes -> {
                    parses.incrementAndGet();
                    String s = new String(bytes, StandardCharsets.UTF_8).trim();
                    if (s.contains(" ")) {
                        throw new IllegalArgumentException("contains spaces");
                    }
                    return s;
                },
                clock,
                INTERVAL);
    }

    @Test
    void aKubernetesLinkSwapIsSeenAtTheFirstLookAfterTheIntervalAndNotBefore() throws Exception {
        KubernetesSecretMount mount = new KubernetesSecretMount(folder);
        Path file = mount.mount("client-secret", "old-secret");
        ReloadableSecret<String> secret = follow(file);

        mount.update("client-secret", "new-secret");
        clock.advance(INTERVAL.minusMillis(1));
        assertThat(secret.get()).isEqualTo("old-secret");

        clock.advance(Duration.ofMillis(1));
        assertThat(secret.get()).isEqualTo("new-secret");
    }

    @Test
    void checkNowLooksAtOnceAndSaysWhetherTheValueChanged() throws Exception {
        KubernetesSecretMount mount = new KubernetesSecretMount(folder);
        ReloadableSecret<String> secret = follow(mount.mount("client-secret", "one"));

        assertThat(secret.checkNow()).isFalse();
        mount.update("client-secret", "two");

        assertThat(secret.checkNow()).isTrue();
        assertThat(secret.get()).isEqualTo("two");
        assertThat(secret.checkNow()).isFalse();
    }

    @Test
    void anUnchangedFileIsNotReadAgainAndTheSameContentIsNoNews() throws Exception {
        KubernetesSecretMount mount = new KubernetesSecretMount(folder);
        ReloadableSecret<String> secret = follow(mount.mount("client-secret", "same"));
        for (int i = 0; i < 10; i++) {
            clock.advance(INTERVAL);
            secret.get();
        }
        assertThat(parses).hasValue(1);

        mount.update("client-secret", "same");

        // Read again (the swap moved it), but the same bytes are not parsed again.
        assertThat(secret.checkNow()).isFalse();
        assertThat(parses).hasValue(1);
    }

    @Test
    void theFileIsLookedAtNoMoreThanOncePerIntervalHoweverOftenTheValueIsAskedFor() throws Exception {
        Path file = Files.writeString(folder.resolve("secret"), "one");
        ReloadableSecret<String> secret = follow(file);
        Files.writeString(file, "two!");

        for (int i = 0; i < 1000; i++) {
            assertThat(secret.get()).isEqualTo("one");
        }
        clock.advance(INTERVAL);

        assertThat(secret.get()).isEqualTo("two!");
    }

    @Test
    void aFileThatTurnsBadKeepsTheLastGoodValueUntilItIsGoodAgain() throws Exception {
        Path file = Files.writeString(folder.resolve("secret"), "good");
        ReloadableSecret<String> secret = follow(file);

        Files.writeString(file, "   \n");
        assertThat(secret.checkNow()).isFalse();
        assertThat(secret.get()).isEqualTo("good");

        Files.writeString(file, "not usable");
        assertThat(secret.checkNow()).isFalse();

        Files.delete(file);
        assertThat(secret.checkNow()).isFalse();

        Files.write(file, new byte[SecretFile.MAX_BYTES + 1]);
        assertThat(secret.checkNow()).isFalse();
        assertThat(secret.get()).isEqualTo("good");

        Files.writeString(file, "better");
        assertThat(secret.checkNow()).isTrue();
        assertThat(secret.get()).isEqualTo("better");
    }

    @Test
    void aFileUnusableAtTheStartIsAnErrorThatNamesWhyAndNotTheContent() throws Exception {
        Path file = Files.writeString(folder.resolve("secret"), "two words");

        assertThatThrownBy(() -> follow(file)).hasMessage("contains spaces");
    }

    @Test
    void neitherToStringNorAFixedValueShowsTheSecret() throws Exception {
        ReloadableSecret<String> secret = follow(Files.writeString(folder.resolve("secret"), "s3cr3t"));
        ReloadableSecret<String> fixed = ReloadableSecret.fixed("apiwarden.client-secret", "s3cr3t");

        assertThat(secret.toString()).doesNotContain("s3cr3t");
        assertThat(fixed.toString()).doesNotContain("s3cr3t");
        assertThat(fixed.get()).isEqualTo("s3cr3t");
        assertThat(fixed.checkNow()).isFalse();
        assertThat(fixed.followsAFile()).isFalse();
    }
}
