package io.apiwarden.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;

/**
 * The app of the paired measurement ({@link PairedRun}), in the JVM under the agent: one client, blocks of calls to
 * the API (managed) and to the same server outside it (unmanaged) taking turns, so that both meet the same moments
 * of the machine. Each measured round prints one {@link #LINE} with both blocks' calls, wall time, the caller
 * thread's CPU and the process's CPU.
 */
final class PairedLoad {
    static final String LINE = "paired";
    static final String DONE_LINE = "paired-done";

    private PairedLoad() {}

    /**
     * @param rounds rounds in all; the first third warm the JIT up and are not printed
     * @param blockMillis how long each block calls
     */
    static void run(AppCalls.Way way, URI managed, URI unmanaged, int rounds, long blockMillis) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (AppCalls app = AppCalls.forWay(way)) {
            for (int round = 0; round < rounds; round++) {
                // The order alternates too, so that a drift within a round favours neither.
                boolean managedFirst = round % 2 == 0;
                long[] first = block(app, way, managedFirst ? managed : unmanaged, managedFirst, blockMillis, threads);
                long[] second =
                        block(app, way, managedFirst ? unmanaged : managed, !managedFirst, blockMillis, threads);
                if (round >= rounds / 3) {
                    long[] m = managedFirst ? first : second;
                    long[] u = managedFirst ? second : first;
                    System.out.println(LINE + " " + m[0] + " " + u[0] + " " + m[1] + " " + u[1] + " " + m[2] + " "
                            + u[2] + " " + m[3] + " " + u[3]);
                }
            }
        }
        System.out.println(DONE_LINE);
    }

    /** Calls, wall ns, the caller's CPU ns, the process's CPU ns. */
    private static long[] block(
            AppCalls app, AppCalls.Way way, URI url, boolean api, long millis, ThreadMXBean threads) {
        long calls = 0;
        long processBefore = ProcessCpuProfiler.processCpuNanos();
        long callerBefore = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        long end = start + millis * 1_000_000L;
        long now = start;
        while (now < end) {
            int status = app.call(way, url, api);
            if (status != 200) {
                throw new IllegalStateException(way.label + " to " + url + " answered " + status
                        + ": a paired measurement of refusals would measure the wrong thing");
            }
            calls++;
            now = System.nanoTime();
        }
        long caller = threads.getCurrentThreadCpuTime() - callerBefore;
        long processAfter = ProcessCpuProfiler.processCpuNanos();
        if (processBefore < 0 || processAfter < 0) {
            throw new IllegalStateException("this JVM cannot read its process's CPU time: no pairs to measure");
        }
        return new long[] {calls, now - start, caller, processAfter - processBefore};
    }
}
