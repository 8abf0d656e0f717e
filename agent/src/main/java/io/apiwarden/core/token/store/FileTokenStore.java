package io.apiwarden.core.token.store;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.SecretFile;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The store of the JVMs on one host that share an {@code apiwarden.refresh-token-file}: the
 * file itself, with no other setting.
 *
 * <ul>
 *   <li>The refresh-token file keeps its plain form (one token, one line), so whatever wrote it
 *       first can still read and replace it.
 *   <li>Beside it, {@code .<name>.state} holds the generation and the current access token with
 *       its expiry, and a fingerprint of the refresh token it belongs to: a refresh-token file
 *       replaced by hand (or by a crash between the two writes) no longer matches, and its
 *       access token is not used.
 *   <li>{@code .<name>.lease} names who may refresh, until when, from which host and process.
 *       A holder killed on this host frees it at once; one that stalls frees it after its
 *       time-to-live, as this JVM counts it: the time in the file is only the holder's claim.
 *   <li>Every read-modify-write happens under an OS lock on {@code .<name>.lock}, held for
 *       milliseconds, never across a network call.
 * </ul>
 * Every file is written to an owner-only temporary file, forced to disk, renamed over the old
 * one, and the folder forced after the rename. The files beside the refresh-token file are the
 * agent's own and read as hostile input: never through a link, never unless a regular file of
 * bounded size ({@link SideFile}), never written through a link. The refresh-token file is the
 * user's: a link there is followed, and a rotated token replaces the file it points at.
 */
public final class FileTokenStore implements TokenStore {
    /** How often a waiting for the OS lock looks again: a critical section lasts about a millisecond. */
    private static final long LOCK_POLL_MILLIS = 2;
    /** One monitor per lock file in this JVM: the OS lock is per process, threads must queue before it. */
    private static final ConcurrentMap<Path, Object> MONITORS = new ConcurrentHashMap<>();
    /** Tries at making a lock file of the agent's own where something else was: another process may be at it too. */
    private static final int LOCK_FILE_ATTEMPTS = 3;

    private final Path refreshFile;
    private final Path stateFile;
    private final Path leaseFile;
    private final Path lockFile;
    private final AtomicFile refreshWriter;
    private final AtomicFile stateWriter;
    private final AtomicFile leaseWriter;
    private final Duration timeout;
    private final Clock clock;
    private volatile String host;
    /** The last lease claim of another holder this JVM saw, and since when: guarded by the lock file's monitor. */
    private String watchedClaim;

    private Instant watchedSince;

    /**
     * @param refreshTokenFile the refresh-token file the JVMs share
     * @param timeout how long an operation may wait for another process's lock
     */
    public FileTokenStore(Path refreshTokenFile, Duration timeout, Clock clock) {
        this.refreshFile = refreshTokenFile.toAbsolutePath();
        Path file = refreshFile;
        String name = file.getFileName().toString();
        this.stateFile = file.resolveSibling("." + name + ".state");
        this.leaseFile = file.resolveSibling("." + name + ".lease");
        this.lockFile = file.resolveSibling("." + name + ".lock");
        this.refreshWriter = AtomicFile.throughLinks(file);
        this.stateWriter = new AtomicFile(stateFile);
        this.leaseWriter = new AtomicFile(leaseFile);
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public TokenState read() throws StoreUnavailableException {
        try {
            return readUnlocked();
        } catch (IOException e) {
            throw unavailable("could not be read", e);
        }
    }

    @Override
    public boolean compareAndSet(TokenState next) throws StoreUnavailableException {
        return underLock(new CompareAndSet(next));
    }

    /**
     * The write of {@link #compareAndSet}, under the lock. The work done under the lock is classes, not lambdas: a JVM's
     * first refresh is often on its first call's way, where a lambda's first use spins a class.
     */
    private final class CompareAndSet implements Locked<Boolean> {
        private final TokenState next;

        CompareAndSet(TokenState next) {
            this.next = next;
        }

        @Override
        public Boolean run() throws IOException {
            TokenState stored = readUnlocked();
            long generation = stored == null ? 0 : stored.generation();
            if (generation != next.generation() - 1) {
                return false;
            }
            if (next.refreshToken() != null
                    && (stored == null || !next.refreshToken().equals(stored.refreshToken()))) {
                // The refresh token first: a crash before the state is written leaves the new refresh
                // token and no access token, which costs one refresh; the other order could lose it.
                refreshWriter.replace((next.refreshToken() + "\n").getBytes(StandardCharsets.UTF_8));
            }
            stateWriter.replace(StateFile.encode(next));
            return true;
        }
    }

    @Override
    public Lease tryLease(Duration ttl) throws StoreUnavailableException {
        String owner = UUID.randomUUID().toString();
        return underLock(new TakeLease(owner, ttl)) ? new FileLease(owner, ttl) : null;
    }

    /** The claim of {@link #tryLease}, under the lock: whether it was taken. */
    private final class TakeLease implements Locked<Boolean> {
        private final String owner;
        private final Duration ttl;

        TakeLease(String owner, Duration ttl) {
            this.owner = owner;
            this.ttl = ttl;
        }

        @Override
        public Boolean run() throws IOException {
            LeaseFile.Holder holder = LeaseFile.read(leaseFile);
            Instant now = clock.instant();
            if (holder != null
                    && !holder.owner.equals(owner)
                    && holder.holds(now, host())
                    && !outlived(holder, now, ttl)) {
                return false;
            }
            LeaseFile.write(
                    leaseWriter,
                    new LeaseFile.Holder(
                            owner,
                            host(),
                            ProcessHandle.current().pid(),
                            clock.instant().plus(ttl)));
            return true;
        }
    }

    /**
     * Whether another holder's claim has stood unchanged for a whole {@code ttl} as this JVM has
     * watched it: a holder renews by writing a new claim, so one that stays is a holder that
     * stopped, whatever time it names (a lease until the year 3000, a pid that is alive but not a
     * JVM of the fleet, a host that is gone). Called under the lock.
     */
    private boolean outlived(LeaseFile.Holder holder, Instant now, Duration ttl) {
        String claim = holder.owner + " " + holder.host + " " + holder.pid + " " + holder.until.toEpochMilli();
        if (!claim.equals(watchedClaim)) {
            watchedClaim = claim;
            watchedSince = now;
            return false;
        }
        return !now.isBefore(watchedSince.plus(ttl));
    }

    @Override
    public String describe() {
        return "file " + refreshFile;
    }

    @Override
    public void close() {
        // Nothing is held between operations.
    }

    @Override
    public String toString() {
        return "FileTokenStore{" + refreshFile + "}";
    }

    private TokenState readUnlocked() throws IOException {
        // The state first: writers replace the refresh-token file first, so a reader between the two
        // writes pairs the old state with the new token (caught by the fingerprint), never the reverse.
        StateFile.Content state = StateFile.read(stateFile);
        if (state != null && state.accessToken != null) {
            SideFile.keepOwnerOnly(stateFile);
        }
        String refreshToken = readRefreshToken();
        if (state == null) {
            return refreshToken == null ? null : new TokenState(1, null, null, null, refreshToken);
        }
        if (state.refreshFingerprint.isEmpty()) {
            // Written without a refresh token (only an access token was ever known): the file, if any, is not this
            // state's.
            return new TokenState(
                    state.generation, state.accessToken, state.expiresAt, state.obtainedAt, null, state.boundKey);
        }
        if (refreshToken != null && state.belongsTo(refreshToken)) {
            return new TokenState(
                    state.generation,
                    state.accessToken,
                    state.expiresAt,
                    state.obtainedAt,
                    refreshToken,
                    state.boundKey);
        }
        // The refresh token was replaced since the state was written: its access token is not this one's.
        return new TokenState(state.generation + 1, null, null, null, refreshToken);
    }

    /** The refresh-token file, by the rule it was read by at start-up: a link is followed, a pipe never opened, the size bounded. */
    private String readRefreshToken() throws IOException {
        try {
            String s = SecretFile.read(refreshFile);
            return s.isEmpty() ? null : s;
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /** Work done while this process holds the OS lock. */
    private interface Locked<T> {
        T run() throws IOException;
    }

    private <T> T underLock(Locked<T> work) throws StoreUnavailableException {
        // Not computeIfAbsent with a lambda: the first lock is often on a JVM's first call's way.
        Object monitor = MONITORS.get(lockFile);
        if (monitor == null) {
            Object made = new Object();
            Object before = MONITORS.putIfAbsent(lockFile, made);
            monitor = before == null ? made : before;
        }
        synchronized (monitor) {
            long giveUp = System.nanoTime() + timeout.toNanos();
            try (FileChannel channel = openLockFile()) {
                FileLock lock = channel.tryLock();
                while (lock == null) {
                    if (System.nanoTime() - giveUp > 0) {
                        throw new StoreUnavailableException(
                                "the token store " + describe() + " is locked by another process for longer than "
                                        + timeout.toMillis() + " ms (apiwarden.store.timeout)");
                    }
                    Thread.sleep(LOCK_POLL_MILLIS);
                    lock = channel.tryLock();
                }
                try {
                    return work.run();
                } finally {
                    lock.release();
                }
            } catch (IOException | OverlappingFileLockException e) {
                throw unavailable("could not be locked or written", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException("interrupted while waiting for the token store's lock");
            }
        }
    }

    /**
     * The lock file, opened for writing without ever following a link: made with
     * {@code CREATE_NEW} (which refuses any name that exists, a link included), or, when there is
     * one, opened with {@code NOFOLLOW_LINKS} once it is known to be a regular file. Anything else
     * in its place was not made by an agent (a link, or a pipe, whose open would wait for a reader
     * forever): its entry is deleted (a link's target is never touched) and a file made anew, with
     * one warning. Two processes that meet it at the same moment may each lock a file of their own
     * once; that costs at most one refresh token spent twice, on a folder someone else writes in.
     */
    private FileChannel openLockFile() throws IOException {
        for (int attempt = 1; attempt <= LOCK_FILE_ATTEMPTS; attempt++) {
            try {
                return FileChannel.open(lockFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                // Ours from before, another process's, or not a file at all: looked at below.
            }
            try {
                if (Files.readAttributes(lockFile, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                        .isRegularFile()) {
                    // READ as well: opened read-write, a pipe put there since the look above does not block the
                    // open on Linux, as a write-only open would (forever, holding the store's monitor).
                    return FileChannel.open(
                            lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
                }
            } catch (NoSuchFileException e) {
                continue;
            }
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "store-lock-file " + lockFile,
                    "the token store's lock file " + lockFile
                            + " is a symbolic link or not a regular file; nothing is written through it, it is replaced by a file."
                            + " Nobody but this agent should write in that folder",
                    null);
            Files.deleteIfExists(lockFile);
        }
        throw new IOException("the lock file " + lockFile + " kept being replaced while it was opened");
    }

    private StoreUnavailableException unavailable(String what, Exception e) {
        return new StoreUnavailableException(
                "the token store " + describe() + " " + what + " ("
                        + e.getClass().getSimpleName()
                        + "): check that the folder exists and this process may write it",
                e);
    }

    /** This host's name, looked up on first use (on the store's thread, never the app's): the lookup may be slow. */
    private String host() {
        String h = host;
        if (h == null) {
            h = hostName().replace(' ', '_');
            host = h;
        }
        return h;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private final class FileLease implements Lease {
        private final String owner;
        private final Duration ttl;

        FileLease(String owner, Duration ttl) {
            this.owner = owner;
            this.ttl = ttl;
        }

        @Override
        public boolean renew() throws StoreUnavailableException {
            return underLock(new Renew());
        }

        @Override
        public void release() {
            try {
                underLock(new Release());
            } catch (StoreUnavailableException e) {
                // The lease runs out by itself.
            }
        }

        /** A new claim of this holder's, under the lock: whether the lease was still this holder's. */
        private final class Renew implements Locked<Boolean> {
            @Override
            public Boolean run() throws IOException {
                LeaseFile.Holder holder = LeaseFile.read(leaseFile);
                if (holder == null || !holder.owner.equals(owner)) {
                    return false;
                }
                LeaseFile.write(
                        leaseWriter,
                        new LeaseFile.Holder(
                                owner,
                                host(),
                                ProcessHandle.current().pid(),
                                clock.instant().plus(ttl)));
                return true;
            }
        }

        /** The claim removed, under the lock, if it is still this holder's. */
        private final class Release implements Locked<Void> {
            @Override
            public Void run() throws IOException {
                LeaseFile.Holder holder = LeaseFile.read(leaseFile);
                if (holder != null && holder.owner.equals(owner)) {
                    Files.deleteIfExists(leaseFile);
                }
                return null;
            }
        }
    }
}
