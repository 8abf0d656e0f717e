package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The part of the agent's start that the app's {@code main} need not wait for, run on a thread of its own: reading and
 * checking the whole configuration, the APIs' routing, the last-resort watch's APIs and the start-up line. On a 2-core
 * machine that is some 40 ms of class loading and interpreted code (docs/benchmarks.md) that {@code premain} held the
 * app's start for. What must be in place before the app's first class loads stays in {@code premain}: the log level,
 * the client switches and the transformers.
 *
 * <p>A hook that needs the configuration before the start is over waits for it ({@link #await}): the app's first
 * client is seldom built that soon, and never while the start itself runs (it builds no client, opens no connection).
 * The thread is not a daemon, so an app whose {@code main} ends at once still gets the start's lines, a configuration
 * error among them.
 */
final class AgentStart {
    /** Longer than any start takes; a hook that waited this long goes on without the agent rather than hold the app. */
    static final long LONGEST_WAIT_MILLIS = 10_000;

    /** Null when no start is under way (none begun, or it is over). */
    private static volatile CountDownLatch pending;

    private static volatile Thread starter;

    private AgentStart() {}

    /** Runs {@code start} on the start thread; {@link #await} waits for it from then on. */
    static void begin(Runnable start) {
        CountDownLatch done = new CountDownLatch(1);
        Thread thread = new Thread(new Run(start, done), "apiwarden-start");
        // The configuration's reading needs nothing of the app's loaders.
        thread.setContextClassLoader(null);
        pending = done;
        starter = thread;
        try {
            thread.start();
        } catch (RuntimeException | Error e) {
            // No start will run: nothing is to be waited for (the caller logs that the agent could not start).
            pending = null;
            done.countDown();
            throw e;
        }
    }

    /** A class, not a lambda: a lambda's first use in premain costs the app's start a millisecond or two. */
    private static final class Run implements Runnable {
        private final Runnable start;
        private final CountDownLatch done;

        Run(Runnable start, CountDownLatch done) {
            this.start = start;
            this.done = done;
        }

        @Override
        public void run() {
            try {
                start.run();
            } catch (Throwable t) {
                AgentLog.error("could not start; the app runs without the agent", t);
            } finally {
                pending = null;
                done.countDown();
            }
        }
    }

    /**
     * Returns once the start is over: at once when it is (one volatile read), or on the start's own thread, or when no
     * start was begun (library mode). Waits at most {@link #LONGEST_WAIT_MILLIS}, after which the caller goes on as if
     * the agent were not configured.
     */
    static void await() {
        await(LONGEST_WAIT_MILLIS);
    }

    static void await(long millis) {
        CountDownLatch done = pending;
        if (done == null || Thread.currentThread() == starter) {
            return;
        }
        try {
            if (!done.await(millis, TimeUnit.MILLISECONDS)) {
                AgentLog.once(
                        AgentLog.Level.WARN,
                        "start-wait",
                        "the agent's start took over " + millis + " ms; a client built meanwhile stays unmanaged",
                        null);
            }
        } catch (InterruptedException e) {
            // The app's own interrupt: kept for the app, and the hook goes on without waiting.
            Thread.currentThread().interrupt();
        }
    }
}
