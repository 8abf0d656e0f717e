package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The part of the agent's start that the app's {@code main} need not wait for, run on a thread of its own: reading and
 * checking the whole configuration, the APIs' routing, the last-resort watch's APIs and the start-up line. On a 2-core
 * machine that is some 40 ms of class loading and interpreted code (docs/benchmarks.md) that {@code premain} held the
 * app's start for. What must be in place before the app's first class loads stays in {@code premain}: the log level,
 * the client switches and the transformers, registered only once the start is under way, so that no hook ever runs
 * before there is a start to wait for.
 *
 * <p>A hook that needs the configuration before the start is over waits for it ({@link #await}): the app's first
 * client is seldom built that soon, and never while the start itself runs (it builds no client, opens no connection).
 * The wait has one deadline for the whole start, {@link #LONGEST_WAIT_MILLIS} after it began: a start that overruns it
 * costs each waiter at most what is left of it, and nothing once it has passed. The thread is not a daemon, so an app
 * whose {@code main} ends at once still gets the start's lines, a configuration error among them.
 */
final class AgentStart {
    /** Longer than any start takes; past it, hooks go on without the agent rather than hold the app. */
    static final long LONGEST_WAIT_MILLIS = 10_000;

    /** The start under way; null when none is (none begun, or it is over). */
    private static final AtomicReference<Start> PENDING = new AtomicReference<>();

    private AgentStart() {}

    /** Runs {@code start} on the start thread; {@link #await} waits for it from then on. */
    static void begin(Runnable start) {
        begin(start, LONGEST_WAIT_MILLIS);
    }

    static void begin(Runnable start, long longestWaitMillis) {
        Start s = new Start(start, longestWaitMillis);
        Thread thread = new Thread(s, "apiwarden-start");
        // Not a daemon even when attached late (the attach thread is one); nothing of the app's loaders is needed.
        thread.setDaemon(false);
        thread.setContextClassLoader(null);
        s.thread = thread;
        PENDING.set(s);
        try {
            thread.start();
        } catch (RuntimeException | Error e) {
            // No start will run: nothing is to be waited for (the caller logs that the agent could not start).
            s.over();
            throw e;
        }
    }

    /**
     * Returns once the start is over: at once when it is (one volatile read), on the start's own thread, when no start
     * was begun (library mode), or when the start's deadline has passed; the caller then goes on as if the agent were
     * not configured.
     */
    static void await() {
        Start s = PENDING.get();
        if (s == null || Thread.currentThread() == s.thread) {
            return;
        }
        long left = s.deadlineNanos - System.nanoTime();
        try {
            if (left <= 0 || !s.done.await(left, TimeUnit.NANOSECONDS)) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "start-wait",
                        "the agent's start took over " + s.longestWaitMillis
                                + " ms; clients built and calls made meanwhile stay unmanaged",
                        null);
            }
        } catch (InterruptedException e) {
            // The app's own interrupt: kept for the app, and the hook goes on without waiting.
            Thread.currentThread().interrupt();
            AgentLog.once(
                    AgentLog.Level.DEBUG,
                    "start-wait-interrupted",
                    "a thread interrupted while waiting for the agent's start went on without it",
                    null);
        }
    }

    /** One start: its work, its thread and the moment its waiters stop waiting. */
    private static final class Start implements Runnable {
        private final Runnable work;
        private final long longestWaitMillis;
        private final long deadlineNanos;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile Thread thread;

        Start(Runnable work, long longestWaitMillis) {
            this.work = work;
            this.longestWaitMillis = longestWaitMillis;
            this.deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(longestWaitMillis);
        }

        @Override
        public void run() {
            try {
                work.run();
            } catch (Throwable t) {
                AgentLog.error("could not start; the app runs without the agent", t);
            } finally {
                over();
            }
        }

        /** Releases the waiters; clears the pending start only if it is still this one. */
        void over() {
            PENDING.compareAndSet(this, null);
            done.countDown();
        }
    }
}
