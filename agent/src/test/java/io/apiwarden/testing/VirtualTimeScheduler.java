package io.apiwarden.testing;

import io.apiwarden.core.time.DelayScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Timers on a {@link MutableClock}: {@link #advance} moves the clock forward and runs each task
 * when its time comes, in the order of their times, so a test sees what real time would do
 * without waiting for it.
 */
public final class VirtualTimeScheduler implements DelayScheduler {
    private final MutableClock clock;
    private final List<Task> tasks = new ArrayList<>();
    private long sequence;

    public VirtualTimeScheduler(MutableClock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized Scheduled schedule(Duration delay, Runnable task) {
        Task t = new Task(clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay), sequence++, task);
        tasks.add(t);
        return () -> {
            synchronized (this) {
                tasks.remove(t);
            }
        };
    }

    @Override
    public void sleep(Duration delay) {
        advance(delay);
    }

    /** Moves the clock by {@code d}, running every task that falls due on the way, at its own time. */
    public void advance(Duration d) {
        Instant end = clock.instant().plus(d);
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.stream()
                        .filter(t -> !t.at.isAfter(end))
                        .min(Comparator.comparing((Task t) -> t.at).thenComparingLong(t -> t.seq))
                        .orElse(null);
                if (next == null) {
                    break;
                }
                tasks.remove(next);
            }
            if (next.at.isAfter(clock.instant())) {
                clock.advance(Duration.between(clock.instant(), next.at));
            }
            next.task.run();
        }
        if (end.isAfter(clock.instant())) {
            clock.advance(Duration.between(clock.instant(), end));
        }
    }

    /** Tasks not yet run nor cancelled. */
    public synchronized int pending() {
        return tasks.size();
    }

    private static final class Task {
        final Instant at;
        final long seq;
        final Runnable task;

        Task(Instant at, long seq, Runnable task) {
            this.at = at;
            this.seq = seq;
            this.task = task;
        }
    }
}
