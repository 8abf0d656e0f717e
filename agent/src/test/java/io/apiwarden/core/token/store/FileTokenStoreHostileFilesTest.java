package io.apiwarden.core.token.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiwarden.core.token.TokenManager;
import io.apiwarden.core.token.TokenSharing;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The files beside the refresh-token file as someone else may have left them: the store never
 * writes through a link, never opens what is not a regular file, reads nothing large, and takes
 * no number in them on trust.
 */
class FileTokenStoreHostileFilesTest {
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** Generous: each operation takes milliseconds; a FIFO opened without a writer never returns. */
    private static final Duration NEVER_HANGS = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @TempDir
    Path elsewhere;

    private final MutableClock clock = MutableClock.atEpochDay();

    private FileTokenStore store() throws Exception {
        Path file = dir.resolve("token");
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            Files.writeString(file, "refresh-0\n");
        }
        return new FileTokenStore(file, TIMEOUT, clock);
    }

    private Path beside(String suffix) {
        return dir.resolve(".token." + suffix);
    }

    private static void mkfifo(Path path) throws Exception {
        assertThat(new ProcessBuilder("mkfifo", path.toString())
                        .inheritIO()
                        .start()
                        .waitFor())
                .isZero();
    }

    @Test
    void aLockFileLinkedOutsideTheFolderIsReplacedNeverWrittenThrough() throws Exception {
        Path target = elsewhere.resolve("created-by-the-agent");
        Files.createSymbolicLink(beside("lock"), target);

        assertThat(store().compareAndSet(new TokenState(2, "access-1", null, null, "refresh-1")))
                .isTrue();

        assertThat(Files.exists(target, LinkOption.NOFOLLOW_LINKS))
                .as("nothing made at the link's target")
                .isFalse();
        assertThat(Files.isRegularFile(beside("lock"), LinkOption.NOFOLLOW_LINKS))
                .isTrue();
    }

    @Test
    void aStateOrLeaseFileThatIsAPipeIsNeverOpened() throws Exception {
        mkfifo(beside("state"));
        mkfifo(beside("lease"));
        FileTokenStore store = store();

        TokenState read = assertTimeoutPreemptively(NEVER_HANGS, store::read);
        TokenStore.Lease lease = assertTimeoutPreemptively(NEVER_HANGS, () -> store.tryLease(TokenSharing.LEASE_TTL));

        assertThat(read.refreshToken()).isEqualTo("refresh-0");
        assertThat(read.accessToken()).isNull();
        assertThat(lease).as("a pipe is no lease").isNotNull();
        assertThat(Files.isRegularFile(beside("lease"), LinkOption.NOFOLLOW_LINKS))
                .as("replaced by the lease written")
                .isTrue();
    }

    @Test
    void aStateLinkedToADeviceAndAHugeLeaseAreNeverRead() throws Exception {
        Files.createSymbolicLink(beside("state"), Paths.get("/dev/zero"));
        try (RandomAccessFile sparse = new RandomAccessFile(beside("lease").toFile(), "rw")) {
            sparse.setLength(200L * 1024 * 1024);
        }
        FileTokenStore store = store();

        assertThat(assertTimeoutPreemptively(NEVER_HANGS, store::read).accessToken())
                .isNull();
        assertThat(assertTimeoutPreemptively(NEVER_HANGS, () -> store.tryLease(TokenSharing.LEASE_TTL)))
                .isNotNull();
    }

    @Test
    void aLeaseClaimedUntilTheYear3000ByALiveProcessOfThisHostIsTakenOverAfterTheTtl() throws Exception {
        long unrelated = ProcessHandle.current().parent().orElseThrow().pid();
        String host = InetAddress.getLocalHost().getHostName().replace(' ', '_');
        Files.writeString(
                beside("lease"),
                "squatter " + host + " " + unrelated + " "
                        + Instant.parse("3000-01-01T00:00:00Z").toEpochMilli());
        FileTokenStore store = store();

        assertThat(store.tryLease(TokenSharing.LEASE_TTL))
                .as("a lease is honoured for its TTL")
                .isNull();
        clock.advance(TokenSharing.LEASE_TTL.minusMillis(1));
        assertThat(store.tryLease(TokenSharing.LEASE_TTL)).isNull();
        clock.advance(Duration.ofMillis(1));
        assertThat(store.tryLease(TokenSharing.LEASE_TTL))
                .as("but no longer, whatever it claims")
                .isNotNull();
    }

    @Test
    void aLeaseClaimedUntilTheYear3000FromAnotherHostIsTakenOverAfterTheTtl() throws Exception {
        Files.writeString(
                beside("lease"),
                "squatter elsewhere.example 1 "
                        + Instant.parse("3000-01-01T00:00:00Z").toEpochMilli());
        FileTokenStore store = store();

        assertThat(store.tryLease(TokenSharing.LEASE_TTL)).isNull();
        clock.advance(TokenSharing.LEASE_TTL);
        assertThat(store.tryLease(TokenSharing.LEASE_TTL)).isNotNull();
    }

    @Test
    void aLeaseRenewedByItsHolderKeepsStanding() throws Exception {
        FileTokenStore store = store();
        TokenStore.Lease holder =
                new FileTokenStore(dir.resolve("token"), TIMEOUT, clock).tryLease(TokenSharing.LEASE_TTL);

        for (int i = 0; i < 5; i++) {
            assertThat(store.tryLease(TokenSharing.LEASE_TTL)).isNull();
            clock.advance(TokenSharing.LEASE_TTL.dividedBy(3));
            assertThat(holder.renew()).isTrue();
        }
        assertThat(store.tryLease(TokenSharing.LEASE_TTL)).isNull();
    }

    @Test
    void aStateWithAGenerationAtLongMaxIsABrokenRecordWhateverItsFingerprint() throws Exception {
        for (String fingerprintOf : new String[] {"refresh-0", "another-token"}) {
            Files.writeString(
                    beside("state"),
                    "{\"generation\":" + Long.MAX_VALUE + ",\"access_token\":\"access-x\","
                            + "\"refresh_token_sha256\":\"" + StateFile.fingerprint(fingerprintOf) + "\"}\n");
            FileTokenStore store = store();

            TokenState read = store.read();

            assertThat(read.accessToken()).as(fingerprintOf).isNull();
            assertThat(read.refreshToken()).isEqualTo("refresh-0");
            assertThat(store.compareAndSet(read.next("access-1", null, null, "refresh-1")))
                    .isTrue();
            assertThat(store.read().accessToken()).isEqualTo("access-1");
            Files.writeString(dir.resolve("token"), "refresh-0\n");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1e0", "99999999999999999999", "\"1\"", "-1", "null", "[1]"})
    void aStateWhoseGenerationIsNoWholeNumberTheFleetWritesIsNoState(String generation) throws Exception {
        Files.writeString(beside("state"), state(generation));

        assertThat(store().read().accessToken()).as(generation).isNull();
    }

    @Test
    void aStateInJsonThatIsNotStrictIsNoStateAndAWellFormedOneIsRead() throws Exception {
        Files.writeString(beside("state"), state("1").replace("{", "{/* written by hand */"));
        assertThat(store().read().accessToken()).isNull();

        Files.writeString(beside("state"), state("1"));
        assertThat(store().read().accessToken()).isEqualTo("access-x");
    }

    private static String state(String generation) {
        return "{\"generation\":" + generation + ",\"access_token\":\"access-x\"," + "\"refresh_token_sha256\":\""
                + StateFile.fingerprint("refresh-0") + "\"}\n";
    }

    @Test
    void aRefreshAgainstAStateAtLongMaxEndsAndItsRotatedTokenIsKept() throws Exception {
        Files.writeString(
                beside("state"),
                "{\"generation\":" + Long.MAX_VALUE + ",\"access_token\":\"access-x\"," + "\"expires_at_ms\":"
                        + Long.MAX_VALUE + ",\"refresh_token_sha256\":\"" + StateFile.fingerprint("refresh-0")
                        + "\"}\n");
        FakeTokenEndpoint tokenService =
                new FakeTokenEndpoint().strictRotation("refresh-0").expiresIn(Duration.ofMinutes(5));
        TokenManager jvm = new TokenManager(
                tokenService,
                null,
                "refresh-0",
                null,
                clock,
                () -> io.apiwarden.core.telemetry.RefreshObserver.NOOP,
                TokenSharing.through(store(), FakeTimer.onTestTime(clock), Runnable::run));

        assertThat(assertTimeoutPreemptively(
                                NEVER_HANGS, () -> jvm.tokenForRequest().join())
                        .authorizationHeader())
                .isEqualTo("Bearer access-1");
        assertThat(Files.readString(dir.resolve("token"))).isEqualTo("refresh-1\n");
        assertThat(tokenService.invalidGrants()).isZero();
    }

    @Test
    void aStateFoundReadableByOthersIsMadeOwnerOnly() throws Exception {
        FileTokenStore store = store();
        store.compareAndSet(new TokenState(2, "access-1", null, null, "refresh-0"));
        Files.setPosixFilePermissions(beside("state"), PosixFilePermissions.fromString("rw-r--r--"));

        assertThat(store.read().accessToken()).isEqualTo("access-1");

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(beside("state"))))
                .isEqualTo("rw-------");
    }

    @Test
    void aStateLinkedToAStateElsewhereIsNeverReadNorWrittenThrough() throws Exception {
        Path planted = elsewhere.resolve("state");
        byte[] stateShaped = StateFile.encode(new TokenState(7, "planted-access", null, null, "refresh-0"));
        Files.write(planted, stateShaped);
        Files.createSymbolicLink(beside("state"), planted);
        FileTokenStore store = store();

        TokenState read = store.read();
        assertThat(read.accessToken())
                .as("the token behind the link is not sent")
                .isNull();
        assertThat(store.compareAndSet(read.next("access-1", null, null, "refresh-1")))
                .isTrue();

        assertThat(Files.readAllBytes(planted)).isEqualTo(stateShaped);
        assertThat(Files.isRegularFile(beside("state"), LinkOption.NOFOLLOW_LINKS))
                .isTrue();
        assertThat(store.read().accessToken()).isEqualTo("access-1");
    }

    @Test
    void aRefreshTokenFileBehindALinkIsRotatedWhereTheLinkPoints() throws Exception {
        Path secret = Files.writeString(elsewhere.resolve("refresh-token"), "refresh-0\n");
        Path link = Files.createSymbolicLink(dir.resolve("token"), secret);
        FileTokenStore store = new FileTokenStore(link, TIMEOUT, clock);

        assertThat(store.compareAndSet(store.read().next("access-1", null, null, "refresh-1")))
                .isTrue();

        assertThat(Files.isSymbolicLink(link)).as("the link stays").isTrue();
        assertThat(Files.readString(secret))
                .as("the secret where the user keeps it is the current one")
                .isEqualTo("refresh-1\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)))
                .isEqualTo("rw-------");
        assertThat(store.read().accessToken()).isEqualTo("access-1");
    }
}
