package io.apiwarden.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * What management adds to a call, measured in pairs: one JVM under the agent, one client, blocks of managed and
 * unmanaged calls taking turns ({@link PairedLoad}); per round, a managed call's wall time, caller's CPU and
 * process's CPU less an unmanaged call's. Both blocks of a round meet the same moment of a shared machine, so its
 * noise cancels where the per-call benchmark's separate JVMs, minutes apart, cannot: a few µs become readable.
 *
 * <p>The unmanaged call is the same client's call to the same server outside the API, so it pays the agent's look-up
 * of the call's API (well under a µs) and nothing else; the figure is management less that look-up.
 */
final class PairedRun {
    /** The setups in which a call can be managed: the others have no agent to pair against. */
    static final Set<AgentSetup> SETUPS = Set.of(AgentSetup.API_WARDEN_UNTRACED, AgentSetup.API_WARDEN);
    /** Far more than the longest run takes (120 rounds of two 250 ms blocks, and the JVM's start). */
    private static final Duration TIME_LIMIT = Duration.ofMinutes(10);

    /** A mean difference and its 99.9% interval. */
    static final class Difference {
        final double mean;
        final double interval;

        Difference(double mean, double interval) {
            this.mean = mean;
            this.interval = interval;
        }

        /** The mean of {@code values} and its two-sided 99.9% interval (Student's t); NaN for fewer than two. */
        static Difference of(List<Double> values) {
            int n = values.size();
            if (n < 2) {
                return new Difference(n == 1 ? values.get(0) : Double.NaN, Double.NaN);
            }
            double mean = 0;
            for (double v : values) {
                mean += v;
            }
            mean /= n;
            double squares = 0;
            for (double v : values) {
                squares += (v - mean) * (v - mean);
            }
            double sd = Math.sqrt(squares / (n - 1));
            double t = new TDistribution(n - 1).inverseCumulativeProbability(0.9995);
            return new Difference(mean, t * sd / Math.sqrt(n));
        }
    }

    /** One way under one setup. */
    static final class Figure {
        final AppCalls.Way way;
        final AgentSetup setup;
        final int rounds;
        /** A managed call, µs: wall time and the process's CPU. */
        final double managedMicros;

        final double managedCpuMicros;
        /** Managed less unmanaged, µs per call. */
        final Difference wall;

        final Difference callerCpu;
        final Difference processCpu;

        Figure(
                AppCalls.Way way,
                AgentSetup setup,
                int rounds,
                double managedMicros,
                double managedCpuMicros,
                Difference wall,
                Difference callerCpu,
                Difference processCpu) {
            this.way = way;
            this.setup = setup;
            this.rounds = rounds;
            this.managedMicros = managedMicros;
            this.managedCpuMicros = managedCpuMicros;
            this.wall = wall;
            this.callerCpu = callerCpu;
            this.processCpu = processCpu;
        }
    }

    private final Target target;
    private final int rounds;
    private final long blockMillis;

    PairedRun(Target target, Effort effort) {
        // Many short rounds rather than a few long ones: the interval narrows with the rounds' number, and a
        // quarter-second block still holds hundreds of calls.
        this(target, effort == Effort.FULL ? 120 : 12, effort == Effort.FULL ? 250 : 200);
    }

    PairedRun(Target target, int rounds, long blockMillis) {
        this.target = target;
        this.rounds = rounds;
        this.blockMillis = blockMillis;
    }

    List<Figure> run(List<AgentSetup> setups, Set<AppCalls.Way> ways) throws IOException, InterruptedException {
        List<Figure> figures = new ArrayList<>();
        for (AppCalls.Way way : ways) {
            for (AgentSetup setup : setups) {
                if (!SETUPS.contains(setup)) {
                    continue;
                }
                System.out.println("== management in pairs, " + way.label + ", " + setup.label());
                ChildJvm.Run run = ChildJvm.run(
                        setup,
                        target,
                        List.of(
                                "-D" + PerCallBenchmark.UNMANAGED_URL_PROPERTY + "=" + target.unmanagedUrl(),
                                "-Xmx512m"),
                        TIME_LIMIT,
                        PairedLoad.DONE_LINE,
                        "paired",
                        way.name(),
                        Integer.toString(rounds),
                        Long.toString(blockMillis));
                figures.add(figureOf(way, setup, run.lines));
            }
        }
        return figures;
    }

    /** The probe's lines ({@link PairedLoad#LINE}) as a figure. */
    static Figure figureOf(AppCalls.Way way, AgentSetup setup, List<String> lines) {
        List<Double> wall = new ArrayList<>();
        List<Double> caller = new ArrayList<>();
        List<Double> process = new ArrayList<>();
        double managedWall = 0;
        double managedProcess = 0;
        long managedCalls = 0;
        for (String line : lines) {
            if (!line.startsWith(PairedLoad.LINE + " ")) {
                continue;
            }
            String[] v = line.substring(PairedLoad.LINE.length() + 1).trim().split(" ");
            long m = Long.parseLong(v[0]);
            long u = Long.parseLong(v[1]);
            wall.add(perCallMicros(v[2], m) - perCallMicros(v[3], u));
            caller.add(perCallMicros(v[4], m) - perCallMicros(v[5], u));
            process.add(perCallMicros(v[6], m) - perCallMicros(v[7], u));
            managedWall += Long.parseLong(v[2]);
            managedProcess += Long.parseLong(v[6]);
            managedCalls += m;
        }
        if (wall.isEmpty()) {
            throw new IllegalStateException("the paired probe printed no rounds: " + lines);
        }
        return new Figure(
                way,
                setup,
                wall.size(),
                managedWall / 1000 / managedCalls,
                managedProcess / 1000 / managedCalls,
                Difference.of(wall),
                Difference.of(caller),
                Difference.of(process));
    }

    private static double perCallMicros(String nanos, long calls) {
        return Long.parseLong(nanos) / 1000.0 / calls;
    }
}
