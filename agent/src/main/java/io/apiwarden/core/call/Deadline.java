package io.apiwarden.core.call;

import io.apiwarden.core.time.DelayScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * The app's own time limit for one call ({@code HttpRequest.timeout()}, OkHttp's
 * {@code callTimeout}): a managed call never outlives it, waits and resends included. An app's
 * time limit is a promise to its own callers; the agent's waits must not break it.
 */
public final class Deadline {
    /** Longer limits are treated as none: no call waits a year, and nanosecond arithmetic stays in range. */
    static final Duration LONGEST = Duration.ofDays(365);
    /** No limit: the app set none. */
    public static final Deadline NONE = new Deadline(null, null);

    private final Instant at;
    private final Clock clock;

    private Deadline(Instant at, Clock clock) {
        this.at = at;
        this.clock = clock;
    }

    /** A limit of {@code limit} from now; {@link #NONE} for null. */
    public static Deadline after(Duration limit, Clock clock) {
        // A limit of years is no limit, and would overflow the clock's arithmetic.
        return limit == null || limit.compareTo(LONGEST) > 0
                ? NONE
                : new Deadline(clock.instant().plus(limit), clock);
    }

    public boolean isSet() {
        return at != null;
    }

    /** What is left of the limit, never negative; meaningless when {@link #isSet() not set}. */
    public Duration remaining() {
        Duration left = Duration.between(clock.instant(), at);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Whether the limit has run out. */
    public boolean hasPassed() {
        return at != null && !clock.instant().isBefore(at);
    }

    /** Whether a wait of {@code delay} that starts now ends within the limit. */
    public boolean allows(Duration delay) {
        return at == null || !clock.instant().plus(delay).isAfter(at);
    }

    /**
     * {@code future} as this call may wait for it: the same result, or a {@link TimeoutException}
     * when the limit runs out first. The shared {@code future} itself is never completed here
     * (other calls wait for it too).
     */
    public <T> CompletableFuture<T> bound(CompletableFuture<T> future, DelayScheduler scheduler) {
        if (at == null || future.isDone()) {
            return future;
        }
        CompletableFuture<T> mine = new CompletableFuture<>();
        DelayScheduler.Scheduled timer = scheduler.schedule(
                remaining(),
                () -> mine.completeExceptionally(new TimeoutException("the call's own time limit ran out")));
        future.whenComplete((value, failure) -> {
            timer.cancel();
            if (failure != null) {
                mine.completeExceptionally(failure);
            } else {
                mine.complete(value);
            }
        });
        return mine;
    }

    @Override
    public String toString() {
        return at == null ? "Deadline{none}" : "Deadline{" + at + "}";
    }
}
