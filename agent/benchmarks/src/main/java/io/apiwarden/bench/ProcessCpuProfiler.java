package io.apiwarden.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * The measured JVM's CPU time per call, all its threads counted: the app's thread, the client's own (the JDK
 * client's selector, OkHttp's and Reactor Netty's), the agent's, the JIT and the GC. The server answers from the
 * runner's JVM, so none of its work is in the figure.
 *
 * <p>Why beside the time per call: on a shared machine a loopback call's wall time moves by tens of µs from one
 * iteration to the next, as other processes take the cores, and the few µs that management adds disappear in that.
 * The CPU the process itself spent moves far less with other processes' load, so what the agent adds to a call
 * shows in it.
 */
public final class ProcessCpuProfiler implements InternalProfiler {
    /** The secondary result's name, as JMH reports it beside {@code gc.alloc.rate.norm}. */
    static final String CPU_PER_OP = "cpu.time.norm";

    private long cpuNanosBefore;

    @Override
    public String getDescription() {
        return "the measured JVM's CPU time (all its threads) per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuNanosBefore = processCpuNanos();
    }

    @Override
    public Collection<? extends Result> afterIteration(
            BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
        long after = processCpuNanos();
        long ops = result.getMetadata().getAllOps();
        double micros =
                cpuNanosBefore < 0 || after < 0 || ops == 0 ? Double.NaN : (after - cpuNanosBefore) / 1000.0 / ops;
        return List.of(new ScalarResult(CPU_PER_OP, micros, "µs/op", AggregationPolicy.AVG));
    }

    /** Where Linux keeps each of the process's threads' scheduler figures, the first of them its CPU time in ns. */
    private static final Path TASKS = Paths.get("/proc/self/task");

    /**
     * Chosen once: two readings from different sources would make a meaningless difference, so a reading that fails
     * is -1, never the other source's figure.
     */
    private static final boolean SCHEDSTAT = Files.isDirectory(TASKS);

    /**
     * The process's CPU time in ns, every thread's (the GC's and the JIT's included), or -1 where it cannot be read.
     *
     * <p>On Linux, the sum of the threads' {@code schedstat}, to the nanosecond: the management bean's
     * {@code getProcessCpuTime} counts there in the kernel's 10 ms ticks, which over a block of a few hundred calls is
     * several µs a call, more than the differences measured. A thread that ended between two readings takes its time
     * with it; in the steady state measured no thread ends. Elsewhere, the management bean's figure.
     */
    static long processCpuNanos() {
        if (SCHEDSTAT) {
            long sum = 0;
            try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
                for (Path task : tasks) {
                    sum += onCpuNanos(task.resolve("schedstat"));
                }
                return sum;
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }

    /** The first field of a thread's {@code schedstat}; 0 for a thread that ended while the tasks were listed. */
    private static long onCpuNanos(Path schedstat) {
        String text;
        try {
            text = new String(Files.readAllBytes(schedstat), StandardCharsets.US_ASCII);
        } catch (IOException ended) {
            // Gone between the listing and the reading (no such file, or no such process).
            return 0;
        }
        int space = text.indexOf(' ');
        return Long.parseLong(space < 0 ? text.trim() : text.substring(0, space));
    }
}
