package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apiwarden.access-token-file} rotated as Kubernetes does it (the {@code ..data} link swap), on an injected
 * clock: when the file's token is used, how it meets the tokens refreshes bring, and what a bad file does.
 */
@Timeout(10)
class AccessTokenFileTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final String PROPERTY = "apiwarden.access-token-file";

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint endpoint = new FakeTokenEndpoint();
    private KubernetesSecretMount mount;

    /** A manager whose first token is the one the mounted file holds, following the file. */
    private TokenManager manager(TokenEndpoint tokenEndpoint, String firstToken) throws Exception {
        mount = new KubernetesSecretMount(folder);
        Path file = mount.mount("access-token", firstToken);
        ReloadableSecret<String> followed =
                ReloadableSecret.open(PROPERTY, file, AccessTokenFile::tokenText, clock, INTERVAL);
        return new TokenManager(tokenEndpoint, firstToken, "refresh-0", null, clock)
                .following(new AccessTokenFile(followed, firstToken));
    }

    private static String token(TokenManager m) {
        return m.tokenForRequest().join().value();
    }

    @Test
    void aNewTokenInTheFileIsUsedFromTheFirstCallAfterTheIntervalRedactedAndNamedInOneInfoLine() throws Exception {
        TokenManager m = manager(endpoint, "file-token-1");
        assertThat(token(m)).isEqualTo("file-token-1");

        try (LogCapture log = LogCapture.at("info")) {
            mount.update("access-token", "file-token-2");
            clock.advance(INTERVAL.minusMillis(1));
            assertThat(token(m)).isEqualTo("file-token-1");

            clock.advance(Duration.ofMillis(1));
            assertThat(token(m)).isEqualTo("file-token-2");
            assertThat(token(m)).isEqualTo("file-token-2");

            assertThat(log.text().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("INFO", PROPERTY)
                    .doesNotContain("file-token-2"));
        }
        assertThat(KnownSecrets.scrub("echoed file-token-2")).isEqualTo("echoed " + KnownSecrets.MARK);
        assertThat(endpoint.requests()).isZero();
    }

    @Test
    void aRefreshedTokenIsKeptWhileTheFileStaysAsItWasAndANewTokenInTheFileReplacesIt() throws Exception {
        TokenManager m = manager(endpoint, "file-token-1");
        AccessToken first = m.tokenForRequest().join();

        assertThat(m.tokenAfterRejection(first).join().value()).isEqualTo("access-1");
        for (int i = 0; i < 3; i++) {
            clock.advance(INTERVAL);
            assertThat(token(m)).as("the unchanged file is no news").isEqualTo("access-1");
        }

        mount.update("access-token", "file-token-2");
        clock.advance(INTERVAL);

        assertThat(token(m)).as("a rotated file is the newest word").isEqualTo("file-token-2");
        assertThat(endpoint.requests()).isEqualTo(1);
    }

    @Test
    void aRefusedTokenHasTheFileLookedAtAtOnceAndItsNewTokenIsResentWithNoTokenRequest() throws Exception {
        TokenManager m = manager(endpoint, "file-token-1");
        AccessToken first = m.tokenForRequest().join();

        mount.update("access-token", "file-token-2");

        assertThat(m.tokenAfterRejection(first).join().value()).isEqualTo("file-token-2");
        assertThat(endpoint.requests()).isZero();
    }

    @Test
    void withNoTokenEndpointTheFileIsWhereTheNextTokenComesFrom() throws Exception {
        TokenManager m = manager(null, "file-token-1");
        AccessToken first = m.tokenForRequest().join();

        assertThat(m.tokenAfterRejection(first))
                .as("nothing new in the file, nothing to refresh with")
                .isCompletedExceptionally();

        mount.update("access-token", "file-token-2");
        assertThat(m.tokenAfterRejection(first).join().value()).isEqualTo("file-token-2");
    }

    @Test
    void aFileThatTurnsBadKeepsTheLastGoodTokenWithOneWarningThatNeverQuotesIt() throws Exception {
        TokenManager m = manager(endpoint, "file-token-1");

        try (LogCapture log = LogCapture.at("warn")) {
            mount.update("access-token", "\"quoted-token-2\"");
            for (int i = 0; i < 3; i++) {
                clock.advance(INTERVAL);
                assertThat(token(m)).isEqualTo("file-token-1");
            }

            assertThat(log.text().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("WARN", PROPERTY, "last good value is kept")
                    .doesNotContain("quoted-token-2"));
        }
        mount.update("access-token", "file-token-3");
        clock.advance(INTERVAL);
        assertThat(token(m)).isEqualTo("file-token-3");
    }

    @Test
    void theAgentFollowsTheConfiguredFile() throws Exception {
        mount = new KubernetesSecretMount(folder);
        Path file = mount.mount("access-token", "file-token-1");
        Warden warden = TestWardens.warden(
                TestWardens.config(
                        "apiwarden.base-url",
                        "https://api.example.com",
                        PROPERTY,
                        file.toString(),
                        "apiwarden.secrets.check-interval",
                        "5s"),
                null,
                FakeTimer.atOnce(clock),
                clock);
        assertThat(token(warden.tokens())).isEqualTo("file-token-1");

        mount.update("access-token", "file-token-2");
        clock.advance(INTERVAL);

        assertThat(token(warden.tokens())).isEqualTo("file-token-2");
    }
}
