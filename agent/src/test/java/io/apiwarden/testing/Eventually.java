package io.apiwarden.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waiting in a test for something other threads do (a client's, a server's, a child process's): looks
 * until it is so, with a patience far above what it takes, and returns as soon as it is. Never a fixed
 * sleep followed by a look: the patience only bounds how long a broken case takes to fail.
 */
public final class Eventually {
    /** Enough for anything a case waits for on a loaded 2-core machine; a passing case waits far less. */
    public static final Duration PATIENCE = Duration.ofSeconds(10);

    /** The first looks come quickly (most waits are short); later ones less often, to leave the CPU to the others. */
    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final long LONGEST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private Eventually() {}

    /** Waits until {@code condition} holds; fails naming {@code what} when it did not within {@link #PATIENCE}. */
    public static void await(String what, BooleanSupplier condition) {
        await(what, PATIENCE, condition);
    }

    /** Waits until {@code condition} holds; fails naming {@code what} when it did not within {@code patience}. */
    public static void await(String what, Duration patience, BooleanSupplier condition) {
        if (!holdsWithin(patience, condition)) {
            throw new AssertionError("waited " + patience + " for " + what + ", in vain");
        }
    }

    /** Whether {@code condition} holds within {@code patience}, looked at until it does. */
    public static boolean holdsWithin(Duration patience, BooleanSupplier condition) {
        return condition.getAsBoolean() || settled(patience, condition::getAsBoolean, held -> held);
    }

    /**
     * What {@code look} sees once {@code settled} accepts it, or what it saw last after {@code patience}: for an
     * assertion on it that shows what was seen.
     */
    public static <T> T settled(Duration patience, Supplier<T> look, Predicate<? super T> settled) {
        long end = System.nanoTime() + patience.toNanos();
        long pause = FIRST_PAUSE_NANOS;
        T seen = look.get();
        while (!settled.test(seen) && end - System.nanoTime() > 0) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting; last seen: " + seen);
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(2 * pause, LONGEST_PAUSE_NANOS);
            seen = look.get();
        }
        return seen;
    }
}
