package io.apiwarden.core.backoff;

import java.time.Duration;
import java.util.Optional;

/**
 * The spec's back-off rule (section 8): resend at most {@code maxRetries} times, waiting
 * {@code initialDelay × 2^(i−1)} before retry i (2, 4, 8, 16, 32 s by default), or longer when the
 * server's {@code Retry-After} asks for it, never longer than {@code maxDelay}.
 */
public final class BackoffPolicy {
    private final Duration initialDelay;
    private final int maxRetries;
    private final Duration maxDelay;

    public BackoffPolicy(Duration initialDelay, int maxRetries, Duration maxDelay) {
        if (initialDelay.isNegative() || initialDelay.isZero() || maxDelay.isNegative() || maxRetries < 0) {
            throw new IllegalArgumentException(
                    "back-off needs a positive initial delay, a non-negative retry count and max delay");
        }
        this.initialDelay = initialDelay;
        this.maxRetries = maxRetries;
        this.maxDelay = maxDelay;
    }

    public int maxRetries() {
        return maxRetries;
    }

    /**
     * The wait before retry {@code retry} (1-based).
     *
     * @param retryAfter what the server asked for, when it did
     */
    public Duration delayBefore(int retry, Optional<Duration> retryAfter) {
        if (retry < 1 || retry > maxRetries) {
            throw new IllegalArgumentException("retry " + retry + " is outside 1.." + maxRetries);
        }
        Duration doubled = initialDelay;
        for (int i = 1; i < retry && doubled.compareTo(maxDelay) < 0; i++) {
            doubled = doubled.multipliedBy(2);
        }
        Duration exponential = doubled;
        // No lambda here: the first call runs this, and a lambda costs a spun class (docs/benchmarks.md).
        Duration asked = retryAfter.orElse(null);
        Duration wait = asked != null && asked.compareTo(exponential) > 0 ? asked : exponential;
        return wait.compareTo(maxDelay) > 0 ? maxDelay : wait;
    }
}
