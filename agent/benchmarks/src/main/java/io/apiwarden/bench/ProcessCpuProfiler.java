package io.apiwarden.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
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

    /** The process's CPU time in ns, or -1 where the JVM cannot tell (not a HotSpot-style management bean). */
    static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            return ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
        }
        return -1;
    }
}
