package io.apiwarden.core.token.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on the refresh-token file, each handle as another JVM on the same host would open it. */
class FileTokenStoreTest extends TokenStoreContract {
    private static final Duration TIMEOUT = Duration.ofMillis(500);

    @TempDir
    Path dir;

    private final MutableClock clock = MutableClock.atEpochDay();
    private int files;

    @Override
    protected TokenStore newStore() {
        return new FileTokenStore(dir.resolve("refresh-token-" + (files++)), TIMEOUT, clock);
    }

    @Override
    protected TokenStore anotherHandle(TokenStore store) {
        return new FileTokenStore(dir.resolve("refresh-token-" + (files - 1)), TIMEOUT, clock);
    }

    @Override
    protected long leaseClockMillis() {
        return clock.millis();
    }

    @Override
    protected void advanceLeaseClock(Duration d) {
        clock.advance(d);
    }

    @Test
    void theRefreshTokenFileKeepsItsPlainFormAndTheStateIsOwnerOnly() throws Exception {
        Path file = dir.resolve("plain");
        FileTokenStore store = new FileTokenStore(file, TIMEOUT, clock);

        assertThat(store.compareAndSet(new TokenState(
                        1, "access-77", Instant.parse("2026-01-01T01:00:00Z"), clock.instant(), "refresh-77")))
                .isTrue();

        assertThat(Files.readString(file)).isEqualTo("refresh-77\n");
        Path state = dir.resolve(".plain.state");
        assertThat(Files.readString(state)).doesNotContain("refresh-77");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
    }

    @Test
    void aRefreshTokenFileReplacedByHandNoLongerPairsWithTheStoredAccessToken() throws Exception {
        Path file = dir.resolve("replaced");
        FileTokenStore store = new FileTokenStore(file, TIMEOUT, clock);
        store.compareAndSet(new TokenState(1, "access-1", null, null, "refresh-1"));

        Files.writeString(file, "from-a-new-login\n");

        TokenState now = store.read();
        assertThat(now.refreshToken()).isEqualTo("from-a-new-login");
        assertThat(now.accessToken())
                .as("the old access token belongs to the old refresh token")
                .isNull();
        assertThat(now.generation()).as("a change all the same").isEqualTo(2);
    }

    @Test
    void aFileWithOnlyARefreshTokenIsTheFirstState() throws Exception {
        Path file = dir.resolve("configured");
        Files.writeString(file, "refresh-0\n");

        TokenState state = new FileTokenStore(file, TIMEOUT, clock).read();

        assertThat(state.generation()).isEqualTo(1);
        assertThat(state.refreshToken()).isEqualTo("refresh-0");
        assertThat(state.accessToken()).isNull();
    }

    @Test
    void aDamagedStateFileCountsAsNone() throws Exception {
        Path file = dir.resolve("damaged");
        Files.writeString(file, "refresh-0\n");
        Files.writeString(dir.resolve(".damaged.state"), "{not json");

        assertThat(new FileTokenStore(file, TIMEOUT, clock).read().accessToken())
                .isNull();
    }
}
