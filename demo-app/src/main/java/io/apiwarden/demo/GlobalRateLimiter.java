package io.apiwarden.demo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The spec's global rate limit: at most {@code limit} requests per fixed window from all callers
 * together. The request that exceeds it starts a throttle period in which every request is refused;
 * a fresh window starts when the throttle ends. Thread-safe.
 */
final class GlobalRateLimiter {
    /** What one request was granted, with the numbers for the rate-limit headers. */
    static final class Outcome {
        final boolean allowed;
        final int limit;
        final int remaining;
        /** Whole seconds, rounded up, until the window resets (or the throttle ends). */
        final long resetSeconds;

        Outcome(boolean allowed, int limit, int remaining, long resetSeconds) {
            this.allowed = allowed;
            this.limit = limit;
            this.remaining = remaining;
            this.resetSeconds = resetSeconds;
        }
    }

    private final Clock clock;
    private final int limit;
    private final Duration window;
    private final Duration throttlePeriod;
    private Instant windowStart;
    private int used;
    private Instant throttledUntil;

    GlobalRateLimiter(Clock clock, int limit, Duration window, Duration throttlePeriod) {
        this.clock = clock;
        this.limit = limit;
        this.window = window;
        this.throttlePeriod = throttlePeriod;
    }

    /** Counts one request against the limit, or refuses it while throttling is in effect. */
    synchronized Outcome acquire() {
        Instant now = clock.instant();
        if (throttledUntil != null) {
            if (now.isBefore(throttledUntil)) {
                return throttled(now);
            }
            windowStart = throttledUntil;
            used = 0;
            throttledUntil = null;
        }
        if (windowStart == null || !now.isBefore(windowStart.plus(window))) {
            windowStart = now;
            used = 0;
        }
        if (used < limit) {
            used++;
            return new Outcome(true, limit, limit - used, secondsUntil(now, windowStart.plus(window)));
        }
        throttledUntil = now.plus(throttlePeriod);
        return throttled(now);
    }

    private Outcome throttled(Instant now) {
        return new Outcome(false, limit, 0, secondsUntil(now, throttledUntil));
    }

    /** Rounded up, so a client that waits this long never comes back too early. */
    static long secondsUntil(Instant now, Instant then) {
        Duration d = Duration.between(now, then);
        if (d.isNegative() || d.isZero()) {
            return 0;
        }
        return d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    }
}
