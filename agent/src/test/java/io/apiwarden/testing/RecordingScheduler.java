package io.apiwarden.testing;

import io.apiwarden.core.time.DelayScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A scheduler that never waits: {@link #sleep} records the delay and advances the clock;
 * {@link #schedule} records the task, which runs when the test calls {@link #runDue()} (or at
 * once, with {@link #runImmediately}).
 */
public final class RecordingScheduler implements DelayScheduler {
    private final MutableClock clock;
    private final boolean runImmediately;
    private final List<Duration> delays = new CopyOnWriteArrayList<>();
    private final List<Task> pending = new ArrayList<>();

    private RecordingScheduler(MutableClock clock, boolean runImmediately) {
        this.clock = clock;
        this.runImmediately = runImmediately;
    }

    /** Scheduled tasks wait for {@link #runDue()}. */
    public static RecordingScheduler manual(MutableClock clock) {
        return new RecordingScheduler(clock, false);
    }

    /** Scheduled tasks run at once, on the scheduling thread, after the clock is advanced. */
    public static RecordingScheduler runImmediately(MutableClock clock) {
        return new RecordingScheduler(clock, true);
    }

    /** Every delay asked for, sleeps and schedules alike, in order. */
    public List<Duration> delays() {
        return List.copyOf(delays);
    }

    public synchronized int pendingCount() {
        return (int) pending.stream().filter(t -> !t.cancelled).count();
    }

    public synchronized int cancelledCount() {
        return (int) pending.stream().filter(t -> t.cancelled).count();
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        delays.add(delay);
        if (runImmediately) {
            clock.advance(delay);
            task.run();
            return () -> {};
        }
        Task t = new Task(delay, task);
        synchronized (this) {
            pending.add(t);
        }
        return () -> t.cancelled = true;
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        delays.add(delay);
        clock.advance(delay);
    }

    /** Runs every task not cancelled, advancing the clock by each one's delay. */
    public void runDue() {
        List<Task> due;
        synchronized (this) {
            due = new ArrayList<>(pending);
            pending.clear();
        }
        for (Task t : due) {
            if (!t.cancelled) {
                clock.advance(t.delay);
                t.task.run();
            }
        }
    }

    private static final class Task {
        final Duration delay;
        final Runnable task;
        volatile boolean cancelled;

        Task(Duration delay, Runnable task) {
            this.delay = delay;
            this.task = task;
        }
    }
}
