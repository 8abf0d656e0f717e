package io.apiwarden.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Whole-process runs: from starting the JVM to its first managed call answered, to its exit, and its
 * peak resident memory. The setups take turns, so a slow spell of the machine hits all of them.
 */
final class StartupRun {
    /** The medians of one setup's runs for one way of calling. */
    static final class Figure {
        final AgentSetup setup;
        final AppCalls.Way way;
        final double millisToFirstCall;
        final double millisToExit;
        final double peakRssMb;

        Figure(AgentSetup setup, AppCalls.Way way, double millisToFirstCall, double millisToExit, double peakRssMb) {
            this.setup = setup;
            this.way = way;
            this.millisToFirstCall = millisToFirstCall;
            this.millisToExit = millisToExit;
            this.peakRssMb = peakRssMb;
        }
    }

    private final Target target;
    private final int runs;

    StartupRun(Target target, int runs) {
        this.target = target;
        this.runs = runs;
    }

    List<Figure> run(List<AgentSetup> setups, AppCalls.Way way) throws IOException, InterruptedException {
        Map<AgentSetup, List<ChildJvm.Run>> bySetup = new EnumMap<>(AgentSetup.class);
        for (int i = 0; i < runs; i++) {
            for (AgentSetup setup : setups) {
                ChildJvm.Run run =
                        ChildJvm.run(setup, target, List.of(), ProcessProbe.FIRST_CALL_LINE, "first-call", way.name());
                String status = run.valuesOf(ProcessProbe.FIRST_CALL_LINE)[0];
                if (!status.equals("200")) {
                    throw new IllegalStateException(
                            "the first call under " + setup.label() + " was answered " + status);
                }
                bySetup.computeIfAbsent(setup, s -> new ArrayList<>()).add(run);
            }
        }
        List<Figure> figures = new ArrayList<>();
        for (AgentSetup setup : setups) {
            List<Double> first = new ArrayList<>();
            List<Double> exit = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            for (ChildJvm.Run run : bySetup.get(setup)) {
                first.add(run.millisToLine);
                exit.add(run.millisToExit);
                rss.add(Long.parseLong(run.valuesOf(ProcessProbe.PEAK_RSS_LINE)[0]) / 1024.0);
            }
            figures.add(new Figure(setup, way, Stats.median(first), Stats.median(exit), Stats.median(rss)));
            System.out.printf(
                    "  %-36s %-15s first call %6.0f ms, exit %6.0f ms, peak RSS %5.1f MB%n",
                    setup.label(), way.label, Stats.median(first), Stats.median(exit), Stats.median(rss));
        }
        return figures;
    }
}
