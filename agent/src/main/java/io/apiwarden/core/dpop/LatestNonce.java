package io.apiwarden.core.dpop;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.token.store.SharedNonce;
import io.apiwarden.core.token.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The latest DPoP nonce one server gave (RFC 9449 sections 8 and 9), which the next proofs for that server carry.
 *
 * <p>Without a fleet store it is this JVM's alone. With one ({@link #shared}), a nonce learnt here is written to the
 * store, and the one the store holds is read back, so that the fleet answers a server's demand once rather than once
 * per JVM. Proofs never wait for the store but once: the first proof of a JVM waits for the first read, at most the
 * store's time-out, so that a JVM started after the fleet learnt the nonce does not meet the demand again. After that
 * the value is read again in the background when a proof finds it older than {@link #READ_EVERY}: a JVM that makes
 * no calls costs the store nothing, and a busy one one read a second. A nonce one JVM learns reaches the others within
 * that second; a proof sent meanwhile with the old one meets the demand and its one resend, as without a fleet.
 *
 * <p>A store that fails costs only the sharing: each JVM keeps learning its own nonces, one warning says so, and
 * reading is tried again {@link #PAUSE_AFTER_FAILURE} later. A nonce is never logged.
 */
public final class LatestNonce {
    static final Duration READ_EVERY = Duration.ofSeconds(1);
    static final Duration PAUSE_AFTER_FAILURE = Duration.ofSeconds(10);
    /** A nonce is opaque, but one this long is no nonce: neither kept nor carried into proofs. */
    static final int MAX_LENGTH = 1024;

    private final SharedNonce shared;
    private final Executor io;
    private final Clock clock;
    private final long firstReadWaitNanos;
    private final ApiLog log;

    private volatile String value;
    /** Counts the nonces learnt here: a read begun before one must not put back the nonce it replaced. */
    private final AtomicLong learnt = new AtomicLong();

    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile long nextReadMillis = Long.MIN_VALUE;
    /** Done when the first read has ended, whatever its outcome. */
    private final CompletableFuture<Void> firstRead = new CompletableFuture<>();

    private final AtomicReference<String> toWrite = new AtomicReference<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    private LatestNonce(SharedNonce shared, Executor io, Clock clock, Duration firstReadWait, ApiLog log) {
        this.shared = shared;
        this.io = io;
        this.clock = clock;
        this.firstReadWaitNanos = firstReadWait.toNanos();
        this.log = log;
        if (shared == null) {
            firstRead.complete(null);
        }
    }

    /** A nonce of this JVM alone. */
    public static LatestNonce local() {
        return new LatestNonce(null, null, null, Duration.ZERO, ApiLog.UNNAMED);
    }

    /**
     * A nonce shared through {@code store}, read and written on {@code io} (never an app's thread).
     *
     * @param firstReadWait the longest the first proof waits for the first read: the store's time-out
     */
    public static LatestNonce shared(SharedNonce store, Executor io, Clock clock, Duration firstReadWait, ApiLog log) {
        return new LatestNonce(store, io, clock, firstReadWait, log);
    }

    /** The nonce the next proof carries, or null. */
    String current() {
        if (shared != null) {
            readIfDue();
            if (!firstRead.isDone()) {
                awaitFirstRead();
            }
        }
        return value;
    }

    /** The server gave {@code nonce}: the next proofs carry it, and the fleet learns it. Anything else is ignored. */
    void learn(String nonce) {
        if (!isNonce(nonce) || nonce.equals(value)) {
            return;
        }
        learnt.incrementAndGet();
        value = nonce;
        if (shared != null) {
            toWrite.set(nonce);
            writeInTurn();
        }
    }

    private void readIfDue() {
        long now = clock.millis();
        if (now < nextReadMillis || !reading.compareAndSet(false, true)) {
            return;
        }
        nextReadMillis = now + READ_EVERY.toMillis();
        long learntBefore = learnt.get();
        try {
            io.execute(() -> read(learntBefore));
        } catch (RuntimeException e) {
            reading.set(false);
            firstRead.complete(null);
        }
    }

    private void read(long learntBefore) {
        try {
            String read = shared.read();
            // A nonce learnt here while the read was on its way is newer than what the read found.
            if (isNonce(read) && learnt.get() == learntBefore) {
                value = read;
            }
        } catch (StoreUnavailableException | RuntimeException e) {
            nextReadMillis = clock.millis() + PAUSE_AFTER_FAILURE.toMillis();
            unshared(e);
        } finally {
            reading.set(false);
            firstRead.complete(null);
        }
    }

    private void awaitFirstRead() {
        try {
            firstRead.get(firstReadWaitNanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // The proof goes with what this JVM knows: at worst the server demands the nonce, as without a fleet.
        }
    }

    /** One write at a time, of the latest nonce learnt: a server that changes its nonce often costs no queue. */
    private void writeInTurn() {
        if (!writing.compareAndSet(false, true)) {
            return;
        }
        try {
            io.execute(this::writeLatest);
        } catch (RuntimeException e) {
            writing.set(false);
        }
    }

    private void writeLatest() {
        try {
            for (String nonce = toWrite.getAndSet(null); nonce != null; nonce = toWrite.getAndSet(null)) {
                shared.write(nonce);
            }
        } catch (StoreUnavailableException | RuntimeException e) {
            // Not kept for later: by then the server has likely moved on, and the next nonce learnt is written.
            toWrite.set(null);
            unshared(e);
        } finally {
            writing.set(false);
        }
        // A nonce learnt after the loop ended and before the flag fell would otherwise wait for the next one.
        if (toWrite.get() != null) {
            writeInTurn();
        }
    }

    private void unshared(Exception e) {
        log.once(
                AgentLog.Level.WARN,
                "dpop-nonce-share",
                "DPoP nonces cannot be shared through " + shared.describe() + " ("
                        + (e instanceof StoreUnavailableException
                                ? e.getMessage()
                                : e.getClass().getSimpleName())
                        + "); each JVM learns the servers' nonces itself meanwhile",
                null);
    }

    /** RFC 9449's {@code nonce = 1*NQCHAR}: printable ASCII but {@code "} and a backslash; bounded. */
    static boolean isNonce(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** Whether it is shared and where; never the nonce. */
    @Override
    public String toString() {
        return "LatestNonce{" + (shared == null ? "this JVM only" : shared.describe()) + "}";
    }
}
