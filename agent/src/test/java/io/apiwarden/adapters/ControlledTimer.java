package io.apiwarden.adapters;

import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.testing.MutableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The agent's waits on the test's time. Flowing (the default), a wait ends at once: a scheduled task
 * runs on the timer's own thread, as it would on the agent's, and a blocking sleep returns; the clock
 * moves to where the wait would have ended. Held, every wait stays pending until the test lets the
 * timer flow again or the call gives it up: a scheduled task until it is cancelled, a sleep until its
 * thread is interrupted. Every delay asked for is recorded, in order.
 */
public final class ControlledTimer implements DelayScheduler {
    private final MutableClock clock;
    private final List<Duration> delays = new CopyOnWriteArrayList<>();
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "controlled-timer");
        t.setDaemon(true);
        return t;
    });
    private final List<Task> held = new ArrayList<>();
    private boolean holding;
    /** Per thread asleep in a held wait, the release it waits for. */
    private final List<Long> asleep = new ArrayList<>();

    private long releases;
    private int givenUp;

    public ControlledTimer(MutableClock clock) {
        this.clock = clock;
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        delays.add(delay);
        Task t = new Task(clock.instant().plus(delay), task, new Throwable("scheduled " + delay + " here"));
        synchronized (this) {
            if (holding) {
                held.add(t);
                notifyAll();
            } else {
                thread.execute(() -> run(t));
            }
        }
        return () -> {
            synchronized (this) {
                if (!t.cancelled && held.remove(t)) {
                    givenUp++;
                    notifyAll();
                }
                t.cancelled = true;
            }
        };
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        delays.add(delay);
        synchronized (this) {
            if (holding) {
                long generation = releases;
                asleep.add(generation);
                notifyAll();
                try {
                    while (generation == releases) {
                        wait();
                    }
                } catch (InterruptedException e) {
                    givenUp++;
                    throw e;
                } finally {
                    asleep.remove(Long.valueOf(generation));
                    notifyAll();
                }
            }
            moveClockTo(clock.instant().plus(delay));
        }
    }

    /** From now on, waits stay pending until {@link #flow()}. */
    public synchronized void hold() {
        holding = true;
    }

    /** Ends every pending wait, soonest first, and every wait from now on at once. */
    public synchronized void flow() {
        holding = false;
        releaseHeld();
    }

    /** Ends every wait held now, soonest first; waits asked for from now on are held. */
    public synchronized void releaseHeld() {
        releases++;
        held.sort(Comparator.comparing(t -> t.at));
        for (Task t : held) {
            thread.execute(() -> run(t));
        }
        held.clear();
        notifyAll();
    }

    /** Every delay asked for, scheduled and slept alike, in order. */
    public List<Duration> delays() {
        return List.copyOf(delays);
    }

    /** Waits held now: scheduled tasks not cancelled, and threads asleep. */
    public synchronized int waiting() {
        int stillAsleep = 0;
        for (long generation : asleep) {
            if (generation == releases) {
                stillAsleep++;
            }
        }
        return held.size() + stillAsleep;
    }

    /** Where each scheduled wait held now was asked for: what a failing case names. */
    public synchronized String describeHeld() {
        StringBuilder out = new StringBuilder();
        for (Task t : held) {
            StringWriter trace = new StringWriter();
            t.origin.printStackTrace(new PrintWriter(trace));
            out.append(trace);
        }
        return out.append(asleep.size()).append(" thread(s) asleep").toString();
    }

    /** Held waits that their call gave up: tasks cancelled, sleeps interrupted. */
    public synchronized int givenUp() {
        return givenUp;
    }

    /** Waits until {@code n} waits are held; false when they were not within {@code patience}. */
    public synchronized boolean awaitWaiting(int n, Duration patience) throws InterruptedException {
        return await(() -> waiting() >= n, patience);
    }

    /** Waits until no wait is held; false when some still were after {@code patience}. */
    public synchronized boolean awaitNoneWaiting(Duration patience) throws InterruptedException {
        return await(() -> waiting() == 0, patience);
    }

    private boolean await(java.util.function.BooleanSupplier condition, Duration patience) throws InterruptedException {
        long end = System.nanoTime() + patience.toNanos();
        while (!condition.getAsBoolean()) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private void run(Task t) {
        synchronized (this) {
            if (t.cancelled) {
                return;
            }
            moveClockTo(t.at);
        }
        t.task.run();
    }

    private void moveClockTo(Instant at) {
        Instant now = clock.instant();
        if (at.isAfter(now)) {
            clock.advance(Duration.between(now, at));
        }
    }

    /** Stops the timer's thread. */
    public void close() {
        thread.shutdownNow();
    }

    private static final class Task {
        final Instant at;
        final Runnable task;
        /** Where the wait was asked for, for a case that finds it still held. */
        final Throwable origin;

        volatile boolean cancelled;

        Task(Instant at, Runnable task, Throwable origin) {
            this.at = at;
            this.task = task;
            this.origin = origin;
        }
    }
}
