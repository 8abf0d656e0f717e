package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every refresh here completes at once or fails: a hang is a bug, and ends the test instead of the build. */
@Timeout(10)
class TokenManagerTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint endpoint = new FakeTokenEndpoint();

    @TempDir
    Path dir;

    private TokenManager manager(String access, RefreshTokenFile file) {
        return new TokenManager(endpoint, access, "refresh-0", file, clock);
    }

    private static String header(CompletableFuture<AccessToken> f) {
        return f.join().authorizationHeader();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> fileNames() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).collect(Collectors.toList());
        }
    }

    @Test
    void theConfiguredTokenIsUsedUntilTheApiRejectsIt() {
        TokenManager m = manager("access-0", null);

        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-0");
        assertThat(endpoint.requests()).isZero();
    }

    @Test
    void concurrentRejectionsOfTheSameTokenShareOneRefresh() {
        endpoint.holding();
        TokenManager m = manager("access-0", null);
        AccessToken rejected = m.current();

        List<CompletableFuture<AccessToken>> waiting = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiting.add(m.tokenAfterRejection(rejected));
        }
        endpoint.release();

        assertThat(waiting).allSatisfy(f -> assertThat(header(f)).isEqualTo("Bearer access-1"));
        assertThat(endpoint.requests()).isEqualTo(1);
    }

    @Test
    void aCallerWhoseTokenWasAlreadyReplacedGetsTheNewOneWithoutARefresh() {
        TokenManager m = manager("access-0", null);
        AccessToken old = m.current();
        m.tokenAfterRejection(old).join();

        assertThat(header(m.tokenAfterRejection(old))).isEqualTo("Bearer access-1");
        assertThat(endpoint.requests()).isEqualTo(1);
    }

    @Test
    void aTokenIsRefreshedInTheBackgroundInsideItsRefreshWindowAndWaitedForOnceExpired() {
        endpoint.expiresIn(Duration.ofMinutes(10));
        TokenManager m = manager(null, null);
        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-1");

        clock.advance(Duration.ofMinutes(8));
        assertThat(header(m.tokenForRequest())).as("well before expiry").isEqualTo("Bearer access-1");
        assertThat(endpoint.requests()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(61));
        assertThat(header(m.tokenForRequest()))
                .as("inside the last 60 s: the current one, refresh started")
                .isEqualTo("Bearer access-1");
        assertThat(endpoint.requests()).isEqualTo(2);
        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-2");

        clock.advance(Duration.ofMinutes(11));
        assertThat(header(m.tokenForRequest()))
                .as("expired: waits for the new one")
                .isEqualTo("Bearer access-3");
    }

    @Test
    void aTokenRevokedMomentsAfterItsIssueIsReplaced() {
        TokenManager m = manager("access-0", null);
        AccessToken fresh = m.tokenAfterRejection(m.current()).join();

        assertThat(header(m.tokenAfterRejection(fresh)))
                .as("revoked at any age: refreshed")
                .isEqualTo("Bearer access-2");
        assertThat(endpoint.requests()).isEqualTo(2);
    }

    @Test
    void aCallerWhoseRejectedTokenWasReplacedByAnAlreadyExpiredOneGetsAFreshOne() {
        endpoint.expiresIn(Duration.ofSeconds(30));
        TokenManager m = manager("access-0", null);
        AccessToken old = m.current();
        m.tokenAfterRejection(old).join();
        clock.advance(Duration.ofSeconds(31));

        assertThat(header(m.tokenAfterRejection(old))).isEqualTo("Bearer access-2");
    }

    @Test
    void aLifetimeBeyondTheClocksRangeStillCompletesTheRefresh() {
        endpoint.expiresIn(Duration.ofSeconds(Long.MAX_VALUE / 4));
        TokenManager m = manager(null, null);

        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-1");
        assertThat(m.current().expiresAt()).contains(clock.instant().plus(TokenManager.MAX_LIFETIME));
    }

    @Test
    void theRefreshWindowIsSixtySecondsOrAFifthOfAShortLife() {
        assertThat(TokenManager.refreshWindow(Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(60));
        assertThat(TokenManager.refreshWindow(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void aRotatedRefreshTokenIsUsedNextAndWrittenBack() throws Exception {
        endpoint.rotating();
        Path file = dir.resolve("refresh");
        Files.writeString(file, "refresh-0\n");
        TokenManager m = manager("access-0", new RefreshTokenFile(file));

        m.tokenAfterRejection(m.current()).join();
        m.tokenAfterRejection(m.current()).join();

        assertThat(endpoint.refreshTokensSeen()).containsExactly("refresh-0", "refresh-1");
        assertThat(Files.readString(file)).isEqualTo("refresh-2\n");
    }

    @Test
    void theRotatedRefreshTokenIsInTheFileBeforeAnyCallerHasTheNewAccessToken() throws Exception {
        endpoint.rotating().holding();
        Path file = dir.resolve("refresh");
        Files.writeString(file, "refresh-0\n");
        TokenManager m = manager("access-0", new RefreshTokenFile(file));

        CompletableFuture<String> fileWhenCallerResumed =
                m.tokenAfterRejection(m.current()).thenApply(t -> read(file));
        assertThat(fileNames())
                .as("the write is prepared before the answer comes")
                .hasSize(2);
        endpoint.release();

        assertThat(fileWhenCallerResumed.join()).isEqualTo("refresh-1\n");
        assertThat(fileNames()).containsExactly("refresh");
    }

    @Test
    void aPreparedWriteIsDroppedWhenTheRefreshDoesNotRotate() throws Exception {
        endpoint.holding();
        Path file = dir.resolve("refresh");
        Files.writeString(file, "refresh-0\n");
        TokenManager m = manager("access-0", new RefreshTokenFile(file));

        CompletableFuture<AccessToken> fresh = m.tokenAfterRejection(m.current());
        endpoint.release();

        assertThat(header(fresh)).isEqualTo("Bearer access-1");
        assertThat(Files.readString(file)).isEqualTo("refresh-0\n");
        assertThat(fileNames()).containsExactly("refresh");
    }

    @Test
    void aPreparedWriteIsDroppedWhenTheRefreshFails() throws Exception {
        CompletableFuture<TokenGrant> answer = new CompletableFuture<>();
        Path file = dir.resolve("refresh");
        Files.writeString(file, "refresh-0\n");
        TokenManager m = new TokenManager(r -> answer, "access-0", "refresh-0", new RefreshTokenFile(file), clock);

        CompletableFuture<AccessToken> fresh = m.tokenAfterRejection(m.current());
        answer.completeExceptionally(new TokenRefreshException("503", false));

        assertThat(fresh).isCompletedExceptionally();
        assertThat(Files.readString(file)).isEqualTo("refresh-0\n");
        assertThat(fileNames()).containsExactly("refresh");
    }

    @Test
    void aRotatedTokenThatCannotBeWrittenIsStillUsedFromMemory() {
        endpoint.rotating();
        TokenManager m =
                manager("access-0", new RefreshTokenFile(dir.resolve("missing").resolve("refresh")));

        m.tokenAfterRejection(m.current()).join();
        m.tokenAfterRejection(m.current()).join();

        assertThat(endpoint.refreshTokensSeen()).containsExactly("refresh-0", "refresh-1");
    }

    @Test
    void aPermanentRefusalStopsRefreshingForGood() {
        endpoint.failingWith(new TokenRefreshException("invalid_grant", true));
        TokenManager m = manager("access-0", null);

        assertThat(m.tokenAfterRejection(m.current())).isCompletedExceptionally();
        clock.advance(Duration.ofHours(1));
        assertThat(m.tokenAfterRejection(m.current())).isCompletedExceptionally();

        assertThat(endpoint.requests()).isEqualTo(1);
        assertThat(m.canRefresh()).isFalse();
        assertThat(header(m.tokenForRequest()))
                .as("calls go on with the last token")
                .isEqualTo("Bearer access-0");
    }

    @Test
    void afterATransientFailureCallersFailFastUntilTheCoolDownEnds() {
        endpoint.failingWith(new TokenRefreshException("503", false));
        TokenManager m = manager("access-0", null);

        m.tokenAfterRejection(m.current());
        m.tokenAfterRejection(m.current());
        assertThat(endpoint.requests()).isEqualTo(1);

        clock.advance(TokenManager.FAILURE_COOL_DOWN);
        m.tokenAfterRejection(m.current());
        assertThat(endpoint.requests()).isEqualTo(2);
    }

    @Test
    void withoutAnEndpointNothingIsRefreshed() {
        TokenManager m = new TokenManager(null, "access-0", null, null, clock);

        assertThat(m.canRefresh()).isFalse();
        assertThat(m.tokenAfterRejection(m.current())).isCompletedExceptionally();
    }

    @Test
    void toStringNeverShowsATokenOrRefreshToken() {
        TokenManager m = manager("access-0", null);

        assertThat(m.toString()).doesNotContain("access-0", "refresh-0");
        assertThat(m.current().toString()).doesNotContain("access-0");
        assertThat(new TokenGrant("a-secret", null, "r-secret").toString()).doesNotContain("a-secret", "r-secret");
    }
}
