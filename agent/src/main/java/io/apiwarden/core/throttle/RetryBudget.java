package io.apiwarden.core.throttle;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Bounds the resends the rate limit causes, JVM-wide: over the last ten seconds, at most
 * {@code ratio} of the calls made, and never fewer than {@code minPerSecond} a second, so an
 * app that calls rarely can still retry. Without it a long throttle turns every caller's own
 * back-off into a storm of resends into a limit that is still exceeded; with it the app gets
 * the API's 429 at once when the budget is spent.
 *
 * <p>Counting a call is a few atomic operations on one of ten per-second buckets, with no lock;
 * a bucket that rolls over while two threads count in it may lose a count, which a budget can bear.
 */
public final class RetryBudget {
    static final int SECONDS = 10;

    private final Clock clock;
    private final double ratio;
    private final int minPerSecond;
    /** Per bucket: the second it counts, its calls and its resends. */
    private final AtomicLongArray second = new AtomicLongArray(SECONDS);

    private final AtomicLongArray calls = new AtomicLongArray(SECONDS);
    private final AtomicLongArray resends = new AtomicLongArray(SECONDS);

    public RetryBudget(Clock clock, double ratio, int minPerSecond) {
        if (!(ratio >= 0) || minPerSecond < 0) {
            throw new IllegalArgumentException("a retry budget needs a ratio of 0 or more and a minimum of 0 or more");
        }
        this.clock = clock;
        this.ratio = ratio;
        this.minPerSecond = minPerSecond;
        for (int i = 0; i < SECONDS; i++) {
            second.set(i, Long.MIN_VALUE);
        }
    }

    /** A managed call was made (its first attempt). */
    public void called() {
        calls.incrementAndGet(bucket(clock.millis() / 1000));
    }

    /**
     * A rate-limited call wants to be resent: true, counted, when the budget allows it; false when
     * the app should get the API's answer now.
     */
    public synchronized boolean tryResend() {
        long now = clock.millis() / 1000;
        long madeCalls = 0;
        long madeResends = 0;
        for (int i = 0; i < SECONDS; i++) {
            long s = second.get(i);
            if (s > now - SECONDS && s <= now) {
                madeCalls += calls.get(i);
                madeResends += resends.get(i);
            }
        }
        double allowed = Math.max((double) minPerSecond * SECONDS, ratio * madeCalls);
        if (madeResends + 1 > allowed) {
            return false;
        }
        resends.incrementAndGet(bucket(now));
        return true;
    }

    /** The bucket of second {@code s}, emptied first if it still holds an older second. */
    private int bucket(long s) {
        int i = (int) Math.floorMod(s, (long) SECONDS);
        long held = second.get(i);
        if (held != s && second.compareAndSet(i, held, s)) {
            calls.set(i, 0);
            resends.set(i, 0);
        }
        return i;
    }

    @Override
    public String toString() {
        return "RetryBudget{" + Math.round(ratio * 100) + "% of calls, at least " + minPerSecond + "/s}";
    }
}
