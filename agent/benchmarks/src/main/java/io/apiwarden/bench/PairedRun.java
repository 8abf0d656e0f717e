package io.apiwarden.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.openjdk.jmh.util.ListStatistics;

/**
 * What management adds to a call, measured in pairs: one JVM, one client, blocks of calls to the API and to the same
 * server outside it taking turns ({@link PairedLoad}); per round, an API call's wall time, caller's CPU and process's
 * CPU less the other call's. Both blocks of a round meet the same moment of a shared machine, so its noise cancels
 * where the per-call benchmark's separate JVMs, minutes apart, cannot: a few µs become readable.
 *
 * <p>The two calls differ besides management (the API call carries a bearer token and answers a larger body), so the
 * same pairs run with no agent too, the app setting its own token; management is the agent's pair difference less
 * that one ({@link Report#management}). The call outside the API pays the agent's look-up of the call's API (well
 * under a µs) and nothing else: management is measured less that look-up.
 */
final class PairedRun {
    /** The setups measured in pairs: API Warden's, and no agent for the calls' own difference. */
    static final Set<AgentSetup> SETUPS =
            Set.of(AgentSetup.NO_AGENT, AgentSetup.API_WARDEN_UNTRACED, AgentSetup.API_WARDEN);
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
            ListStatistics stats = new ListStatistics();
            for (double v : values) {
                stats.addValue(v);
            }
            if (values.size() < 2) {
                return new Difference(values.isEmpty() ? Double.NaN : values.get(0), Double.NaN);
            }
            // JMH's own statistics, as its per-call intervals: the half-width of the 99.9% interval of the mean.
            return new Difference(stats.getMean(), stats.getMeanErrorAt(0.999));
        }

        /** This difference less {@code baseline}'s: the means' difference, the intervals combined. */
        Difference less(Difference baseline) {
            return new Difference(mean - baseline.mean, Math.hypot(interval, baseline.interval));
        }
    }

    /** One way under one setup. */
    static final class Figure {
        final AppCalls.Way way;
        final AgentSetup setup;
        final int rounds;
        /** A call to the API, µs: wall time and the process's CPU. */
        final double managedMicros;

        final double managedCpuMicros;
        /** The API call less the other, µs per call. */
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
