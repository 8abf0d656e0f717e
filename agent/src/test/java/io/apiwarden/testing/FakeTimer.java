package io.apiwarden.testing;

import io.apiwarden.core.time.DelayScheduler;
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

/**
 * The agent's waits ({@link DelayScheduler}) on a test's {@link MutableClock}: nothing waits for real. A wait
 * ends at the instant it would have, the clock moved there; every delay asked for is recorded, in order. When
 * waits end is the test's choice:
 *
 * <ul>
 *   <li>{@link #atOnce}: as each is asked for, on the asking thread (a task runs before {@code schedule} returns);
 *   <li>{@link #onItsThread}: as each is asked for, a task on the timer's own thread, as on the agent's timer;
 *       {@link #hold()} then keeps every wait pending, a sleeping thread asleep too, so that the test can look
 *       at calls while they wait, until {@link #releaseHeld()} or {@link #flow()};
 *   <li>{@link #onTestTime}: a task when the test moves time ({@link #advance}) or ends the pending waits
 *       ({@link #runDue()}); a blocking sleep moves time itself, running what falls due meanwhile.
 * </ul>
 *
 * A pending wait that its call gives up (a task cancelled, a held sleep interrupted) counts in {@link #givenUp()}.
 */
public final class FakeTimer implements DelayScheduler, AutoCloseable {

    private enum Ending {
        AT_ONCE,
        ON_ITS_THREAD,
        ON_TEST_TIME,
        HELD
    }

    private final MutableClock clock;
    private final List<Duration> delays = new CopyOnWriteArrayList<>();
    /** Tasks not yet run nor given up: the test ends them (on test time, or held). */
    private final List<Task> pending = new ArrayList<>();
    /** Per thread asleep in a held wait, the release it waits for. */
    private final List<Long> asleep = new ArrayList<>();

    private Ending ending;
    private ExecutorService thread;
    private long releases;
    private long sequence;
    private int givenUp;

    private FakeTimer(MutableClock clock, Ending ending) {
        this.clock = clock;
        this.ending = ending;
    }

    /** Each wait ends as it is asked for, on the asking thread. */
    public static FakeTimer atOnce(MutableClock clock) {
        return new FakeTimer(clock, Ending.AT_ONCE);
    }

    /** Each wait ends as it is asked for, a scheduled task on the timer's own thread; {@link #close()} stops it. */
    public static FakeTimer onItsThread(MutableClock clock) {
        return new FakeTimer(clock, Ending.ON_ITS_THREAD);
    }

    /** Scheduled tasks wait for the test to move time ({@link #advance}) or end them ({@link #runDue()}). */
    public static FakeTimer onTestTime(MutableClock clock) {
        return new FakeTimer(clock, Ending.ON_TEST_TIME);
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        delays.add(delay);
        Task t;
        Ending now;
        synchronized (this) {
            t = new Task(endOf(delay), sequence++, task, new Throwable("scheduled " + delay + " here"));
            now = ending;
            if (now == Ending.ON_TEST_TIME || now == Ending.HELD) {
                pending.add(t);
            } else if (now == Ending.ON_ITS_THREAD) {
                thread().execute(() -> runUnlessGivenUp(t));
            }
        }
        if (now == Ending.AT_ONCE) {
            runUnlessGivenUp(t);
        }
        return () -> {
            synchronized (this) {
                if (!t.cancelled && pending.remove(t)) {
                    givenUp++;
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
            if (ending == Ending.HELD) {
                long generation = releases;
                asleep.add(generation);
                try {
                    while (generation == releases) {
                        wait();
                    }
                } catch (InterruptedException e) {
                    givenUp++;
                    throw e;
                } finally {
                    asleep.remove(Long.valueOf(generation));
                }
            }
            if (ending != Ending.ON_TEST_TIME) {
                moveClockTo(endOf(delay));
                return;
            }
        }
        // On test time the sleeping thread moves time: what falls due meanwhile runs, as it would have.
        advance(delay);
    }

    /** From now on every wait stays pending, a sleeping thread asleep, until {@link #releaseHeld()} or {@link #flow()}. */
    public synchronized void hold() {
        ending = Ending.HELD;
    }

    /** Ends every wait pending now, soonest first, on the timer's thread; and every later wait as it is asked for. */
    public synchronized void flow() {
        ending = Ending.ON_ITS_THREAD;
        releaseHeld();
    }

    /** Ends every wait pending now, soonest first, on the timer's thread; later waits stay pending. */
    public synchronized void releaseHeld() {
        releases++;
        for (Task t : takePending()) {
            thread().execute(() -> runUnlessGivenUp(t));
        }
        notifyAll();
    }

    /** Ends every task pending now, soonest first, on the calling thread; tasks they schedule stay pending. */
    public void runDue() {
        List<Task> due;
        synchronized (this) {
            due = takePending();
        }
        due.forEach(this::runUnlessGivenUp);
    }

    /** Moves the clock by {@code d}, running every pending task that falls due on the way, at its own time. */
    public void advance(Duration d) {
        Instant end = clock.instant().plus(d);
        while (true) {
            Task next;
            synchronized (this) {
                next = pending.stream()
                        .filter(t -> !t.at.isAfter(end))
                        .min(SOONEST_FIRST)
                        .orElse(null);
                if (next == null) {
                    moveClockTo(end);
                    return;
                }
                pending.remove(next);
            }
            runUnlessGivenUp(next);
        }
    }

    /** Every delay asked for, scheduled and slept alike, in order. */
    public List<Duration> delays() {
        return List.copyOf(delays);
    }

    /** Waits pending now: tasks not run nor given up, and threads asleep in a held wait. */
    public synchronized int waiting() {
        int stillAsleep = 0;
        for (long generation : asleep) {
            if (generation == releases) {
                stillAsleep++;
            }
        }
        return pending.size() + stillAsleep;
    }

    /** Pending waits that their call gave up: tasks cancelled, held sleeps interrupted. */
    public synchronized int givenUp() {
        return givenUp;
    }

    /** Where each task pending now was scheduled, and how many threads are asleep: what a failing case names. */
    public synchronized String describeHeld() {
        StringBuilder out = new StringBuilder();
        for (Task t : pending) {
            StringWriter trace = new StringWriter();
            t.origin.printStackTrace(new PrintWriter(trace));
            out.append(trace);
        }
        return out.append(asleep.size()).append(" thread(s) asleep").toString();
    }

    /** Stops the timer's thread, if it has one. */
    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }

    private static final Comparator<Task> SOONEST_FIRST =
            Comparator.comparing((Task t) -> t.at).thenComparingLong(t -> t.sequence);

    private List<Task> takePending() {
        List<Task> taken = new ArrayList<>(pending);
        taken.sort(SOONEST_FIRST);
        pending.clear();
        return taken;
    }

    private Instant endOf(Duration delay) {
        return clock.instant().plus(delay.isNegative() ? Duration.ZERO : delay);
    }

    private void runUnlessGivenUp(Task t) {
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

    private ExecutorService thread() {
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "fake-timer");
                t.setDaemon(true);
                return t;
            });
        }
        return thread;
    }

    private static final class Task {
        final Instant at;
        final long sequence;
        final Runnable task;
        /** Where the wait was asked for, for a case that finds it still pending. */
        final Throwable origin;

        volatile boolean cancelled;

        Task(Instant at, long sequence, Runnable task, Throwable origin) {
            this.at = at;
            this.sequence = sequence;
            this.task = task;
            this.origin = origin;
        }
    }
}
