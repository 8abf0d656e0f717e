package io.apiwarden.telemetry;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The threads the telemetry's start makes, and those the SDK makes from it, in one group of their own: so that the
 * exit can tell the exporter's threads from the app's.
 *
 * <p>Why it matters: the OTLP exporter sends through a JDK {@code HttpClient}, whose selector thread waits in native
 * code. Before JDK 21 nothing can close that client, and HotSpot's exit waits up to 300 ms for threads in native
 * code to stop: an app whose JVM made no {@code HttpClient} of its own (OkHttp, Apache, Netty) exited ~320 ms later
 * with the agent than without (measured on JDK 17; JDK 25 does not wait). An interrupted selector thread ends, so
 * once the SDK has flushed, the exit hook interrupts this group's selector threads: never the app's, which are in
 * the app's groups.
 */
final class TelemetryThreads {
    /** The group, or null when none could be made: then the threads go in the starter's group, and none is ended. */
    static final ThreadGroup GROUP = newGroup();

    /**
     * What else of the telemetry's own holds a thread in native code: the Prometheus endpoint's HTTP server, whose
     * dispatcher waits in {@code select} and held the exit the same 300 ms (measured: an OkHttp app's exit 17 ms
     * without the endpoint, 337 ms with it, JDK 17). Stopped at exit, before the selector threads are ended.
     */
    private static final List<Runnable> STOPS_AT_EXIT = new CopyOnWriteArrayList<>();

    /** The JDK names its client's selector thread {@code HttpClient-<id>-SelectorManager}. */
    private static final String SELECTOR_SUFFIX = "-SelectorManager";

    private TelemetryThreads() {}

    /**
     * Under the root group, not under the group of whichever app thread got here first, which the app may end; and
     * not a daemon group, which the JDK (before 19) destroyed as soon as it was empty for a moment.
     */
    private static ThreadGroup newGroup() {
        try {
            ThreadGroup root = Thread.currentThread().getThreadGroup();
            while (root.getParent() != null) {
                root = root.getParent();
            }
            ThreadGroup group = new ThreadGroup(root, "apiwarden-telemetry");
            group.setDaemon(false);
            return group;
        } catch (RuntimeException e) {
            // A security manager refusing it: the telemetry starts all the same.
            return null;
        }
    }

    /** Has {@code stop} run at exit ({@link #exit}). */
    static void stopAtExit(Runnable stop) {
        STOPS_AT_EXIT.add(stop);
    }

    /** The exit's last step, once the SDK has flushed: what was to stop is stopped, then the selector threads end. */
    static void exit() {
        runStopsAtExit();
        endSelectorThreads(GROUP);
    }

    /** Runs what {@link #stopAtExit} was given. */
    static void runStopsAtExit() {
        for (Runnable stop : STOPS_AT_EXIT) {
            try {
                stop.run();
            } catch (RuntimeException e) {
                // The JVM exits: nothing of it is worth a line.
            }
        }
    }

    /** Interrupts the JDK {@code HttpClient} selector threads of {@code group} (none for null); returns how many. */
    static int endSelectorThreads(ThreadGroup group) {
        if (group == null) {
            return 0;
        }
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        int ended = 0;
        for (int i = 0; i < n; i++) {
            Thread t = threads[i];
            if (t.getName().startsWith("HttpClient-") && t.getName().endsWith(SELECTOR_SUFFIX)) {
                t.interrupt();
                ended++;
            }
        }
        return ended;
    }
}
