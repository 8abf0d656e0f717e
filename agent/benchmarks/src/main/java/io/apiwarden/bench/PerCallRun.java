package io.apiwarden.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs {@link PerCallBenchmark} under each {@link AgentSetup}, one forked JVM per benchmark and target. */
final class PerCallRun {
    /** JMH's name for the allocation per operation that its GC profiler reports. */
    private static final String ALLOCATION_PER_OP = "gc.alloc.rate.norm";
    /** More options for the measured JVMs ({@link #forkArgs}). */
    static final String FORK_ARGS_PROPERTY = "apiwarden.bench.fork-args";

    /** One measured figure: a way of calling, a target, a setup. */
    static final class Figure {
        final AppCalls.Way way;
        final boolean managed;
        final AgentSetup setup;
        final double microsPerCall;
        final double microsError;
        final double bytesPerCall;
        /** The measured JVM's CPU time per call, all its threads ({@link ProcessCpuProfiler}); NaN if not known. */
        final double cpuMicrosPerCall;

        final double cpuMicrosError;

        Figure(
                AppCalls.Way way,
                boolean managed,
                AgentSetup setup,
                double microsPerCall,
                double microsError,
                double bytesPerCall,
                double cpuMicrosPerCall,
                double cpuMicrosError) {
            this.way = way;
            this.managed = managed;
            this.setup = setup;
            this.microsPerCall = microsPerCall;
            this.microsError = microsError;
            this.bytesPerCall = bytesPerCall;
            this.cpuMicrosPerCall = cpuMicrosPerCall;
            this.cpuMicrosError = cpuMicrosError;
        }
    }

    private final Target target;
    private final Effort effort;

    PerCallRun(Target target, Effort effort) {
        this.target = target;
        this.effort = effort;
    }

    List<Figure> run(List<AgentSetup> setups, Set<AppCalls.Way> ways) throws RunnerException {
        String methods = ways.stream().map(w -> w.benchmark).collect(Collectors.joining("|"));
        List<Figure> figures = new ArrayList<>();
        for (AgentSetup setup : setups) {
            List<String> jvmArgs = new ArrayList<>(setup.jvmArgs(target));
            jvmArgs.add("-D" + PerCallBenchmark.MANAGED_URL_PROPERTY + "=" + target.managedUrl());
            jvmArgs.add("-D" + PerCallBenchmark.UNMANAGED_URL_PROPERTY + "=" + target.unmanagedUrl());
            jvmArgs.add("-Xmx512m");
            jvmArgs.addAll(forkArgs());
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(PerCallBenchmark.class.getName() + "\\.(" + methods + ")$")
                    .forks(effort.forks)
                    .warmupIterations(effort.warmupIterations)
                    .warmupTime(TimeValue.seconds(effort.iterationSeconds))
                    .measurementIterations(effort.measurementIterations)
                    .measurementTime(TimeValue.seconds(effort.iterationSeconds))
                    .addProfiler(GCProfiler.class)
                    .addProfiler(ProcessCpuProfiler.class)
                    // Exactly these options: a fork would otherwise inherit this JVM's own.
                    .jvmArgs(jvmArgs.toArray(new String[0]))
                    .shouldFailOnError(true);
            System.out.println("== per call, " + setup.label());
            Collection<RunResult> results = new Runner(options.build()).run();
            for (RunResult result : results) {
                figures.add(figureOf(result, setup));
            }
        }
        return figures;
    }

    /**
     * More options for every measured JVM, {@code -Dapiwarden.bench.fork-args="-XX:StartFlightRecording=..."}
     * (separated by spaces): to profile one setup's calls where they are measured.
     */
    private static List<String> forkArgs() {
        String args = System.getProperty(FORK_ARGS_PROPERTY, "").trim();
        return args.isEmpty() ? List.of() : List.of(args.split("\\s+"));
    }

    private static Figure figureOf(RunResult result, AgentSetup setup) {
        String method = result.getParams().getBenchmark();
        method = method.substring(method.lastIndexOf('.') + 1);
        AppCalls.Way way = wayOf(method);
        boolean managed = result.getParams().getParam("target").equals("managed");
        Result<?> primary = result.getPrimaryResult();
        Result<?> allocation = result.getSecondaryResults().get(ALLOCATION_PER_OP);
        Result<?> cpu = result.getSecondaryResults().get(ProcessCpuProfiler.CPU_PER_OP);
        return new Figure(
                way,
                managed,
                setup,
                primary.getScore(),
                primary.getScoreError(),
                allocation == null ? Double.NaN : allocation.getScore(),
                cpu == null ? Double.NaN : cpu.getScore(),
                cpu == null ? Double.NaN : cpu.getScoreError());
    }

    static AppCalls.Way wayOf(String benchmarkMethod) {
        for (AppCalls.Way way : AppCalls.Way.values()) {
            if (way.benchmark.equals(benchmarkMethod)) {
                return way;
            }
        }
        throw new IllegalArgumentException("no way of calling is known for benchmark method " + benchmarkMethod);
    }
}
