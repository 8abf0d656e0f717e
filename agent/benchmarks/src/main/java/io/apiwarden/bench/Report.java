package io.apiwarden.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Turns the figures of one suite run into the Markdown tables of {@code docs/benchmarks.md}. */
final class Report {
    /** The targets, checked against each run. */
    static final double MAX_ADDED_STARTUP_MS = 300;

    static final double MAX_ADDED_RSS_MB = 30;
    static final double MAX_MANAGED_OVERHEAD_PERCENT = 3;
    static final double MAX_JAR_MB = 10;
    /** An unmanaged call this close to the bare one counts as the same, whatever the noise. */
    static final double UNMANAGED_TOLERANCE_PERCENT = 1;
    /** A difference judged within a wider interval than this is noise, not a result. */
    static final double CONCLUSIVE_INTERVAL_PERCENT = 3;
    /** Management's CPU per call over the bare client's, tracing and metrics off. */
    static final double MAX_MANAGEMENT_CPU_MICROS = 3;
    /** Tracing on: the CPU API Warden adds to a call, as a share of what the OpenTelemetry agent adds. */
    static final double MAX_SHARE_OF_OTEL_AGENT_CPU = 0.5;

    private final StringBuilder md = new StringBuilder();
    private final List<String> verdicts = new ArrayList<>();

    Report(String header) {
        md.append(header).append('\n');
    }

    void jarSizes(double apiWardenMb, double otelAgentMb) {
        md.append("\n### Agent jar\n\n| jar | size |\n|---|---|\n");
        row("API Warden", mb(apiWardenMb));
        row("OpenTelemetry Java agent", mb(otelAgentMb));
        verdict("agent jar ≤ " + fmt(MAX_JAR_MB) + " MB", apiWardenMb <= MAX_JAR_MB, mb(apiWardenMb));
    }

    void startup(List<StartupRun.Figure> figures) {
        md.append("\n### Start-up and memory (median of each setup's runs)\n\n")
                .append("| app | setup | JVM start to first managed call answered | to exit | peak RSS |\n")
                .append("|---|---|---|---|---|\n");
        for (StartupRun.Figure f : figures) {
            Optional<StartupRun.Figure> bare = find(figures, f.way, AgentSetup.NO_AGENT);
            String first = ms(f.millisToFirstCall);
            String exit = ms(f.millisToExit);
            String rss = mb(f.peakRssMb);
            if (f.setup != AgentSetup.NO_AGENT && bare.isPresent()) {
                first += " (" + signedMs(f.millisToFirstCall - bare.get().millisToFirstCall) + ")";
                exit += " (" + signedMs(f.millisToExit - bare.get().millisToExit) + ")";
                rss += " (" + signedMb(f.peakRssMb - bare.get().peakRssMb) + ")";
            }
            row(f.way.label, f.setup.label(), first, exit, rss);
            if (f.setup == AgentSetup.API_WARDEN && bare.isPresent()) {
                double addedMs = f.millisToFirstCall - bare.get().millisToFirstCall;
                double addedMb = f.peakRssMb - bare.get().peakRssMb;
                verdict(
                        "start-up added ≤ " + ms(MAX_ADDED_STARTUP_MS) + " (" + f.way.label + ")",
                        addedMs <= MAX_ADDED_STARTUP_MS,
                        signedMs(addedMs));
                verdict(
                        "peak RSS added ≤ " + mb(MAX_ADDED_RSS_MB) + " (" + f.way.label + ")",
                        addedMb <= MAX_ADDED_RSS_MB,
                        signedMb(addedMb));
            }
        }
    }

    void perCall(List<PerCallRun.Figure> figures) {
        md.append("\n### Per call (µs per call, ± the 99.9% interval; bytes allocated per call)\n\n")
                .append("| way | target | no agent | API Warden | API Warden, tracing and metrics off "
                        + "| API Warden, 10 APIs configured "
                        + "| OpenTelemetry agent | API Warden vs no agent | API Warden vs OpenTelemetry agent |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (AppCalls.Way way : AppCalls.Way.values()) {
            for (boolean managed : new boolean[] {true, false}) {
                Optional<PerCallRun.Figure> bare = find(figures, way, managed, AgentSetup.NO_AGENT);
                Optional<PerCallRun.Figure> warden = find(figures, way, managed, AgentSetup.API_WARDEN);
                Optional<PerCallRun.Figure> untraced = find(figures, way, managed, AgentSetup.API_WARDEN_UNTRACED);
                Optional<PerCallRun.Figure> tenApis = find(figures, way, managed, AgentSetup.API_WARDEN_TEN_APIS);
                Optional<PerCallRun.Figure> otel = find(figures, way, managed, AgentSetup.OTEL_AGENT);
                if (bare.isEmpty() && warden.isEmpty() && untraced.isEmpty() && tenApis.isEmpty() && otel.isEmpty()) {
                    continue;
                }
                String vsBare = bare.isPresent() && warden.isPresent()
                        ? Stats.percentOver(warden.get().microsPerCall, bare.get().microsPerCall)
                        : "";
                String vsOtel = otel.isPresent() && warden.isPresent()
                        ? Stats.ratio(warden.get().microsPerCall, otel.get().microsPerCall)
                        : "";
                row(
                        way.label,
                        managed ? "managed" : "unmanaged",
                        cell(bare),
                        cell(warden),
                        cell(untraced),
                        cell(tenApis),
                        cell(otel),
                        vsBare,
                        vsOtel);
                if (bare.isPresent() && warden.isPresent()) {
                    perCallVerdict(way, managed, bare.get(), warden.get());
                }
            }
        }
    }

    /**
     * The measured JVM's CPU per call ({@link ProcessCpuProfiler}), and what each agent adds to it: the figures a
     * shared machine's noise leaves readable, where a loopback call's wall time does not.
     */
    void perCallCpu(List<PerCallRun.Figure> figures) {
        List<String[]> rows = new ArrayList<>();
        for (AppCalls.Way way : AppCalls.Way.values()) {
            for (boolean managed : new boolean[] {true, false}) {
                Optional<PerCallRun.Figure> bare = withCpu(find(figures, way, managed, AgentSetup.NO_AGENT));
                Optional<PerCallRun.Figure> warden = withCpu(find(figures, way, managed, AgentSetup.API_WARDEN));
                Optional<PerCallRun.Figure> untraced =
                        withCpu(find(figures, way, managed, AgentSetup.API_WARDEN_UNTRACED));
                Optional<PerCallRun.Figure> otel = withCpu(find(figures, way, managed, AgentSetup.OTEL_AGENT));
                if (bare.isEmpty() || (warden.isEmpty() && untraced.isEmpty() && otel.isEmpty())) {
                    continue;
                }
                rows.add(new String[] {
                    way.label,
                    managed ? "managed" : "unmanaged",
                    cpuCell(bare),
                    cpuCell(warden),
                    cpuCell(untraced),
                    cpuCell(otel),
                    cpuAdded(untraced, bare.get()),
                    cpuAdded(warden, bare.get()),
                    cpuAdded(otel, bare.get())
                });
                if (managed) {
                    untraced.ifPresent(u -> managementCpuVerdict(way, bare.get(), u));
                    if (warden.isPresent() && otel.isPresent()) {
                        shareOfOtelCpuVerdict(way, bare.get(), warden.get(), otel.get());
                    }
                }
            }
        }
        if (rows.isEmpty()) {
            // No figure with its CPU beside a bare one: no table, not even its heading.
            return;
        }
        md.append("\n### Per call, the app's CPU (µs of the measured JVM's CPU per call, all its threads, ± the 99.9% "
                        + "interval)\n\n")
                .append("| way | target | no agent | API Warden | API Warden, tracing and metrics off "
                        + "| OpenTelemetry agent | management over no agent (tracing off) "
                        + "| API Warden over no agent | OpenTelemetry agent over no agent |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (String[] row : rows) {
            row(row);
        }
    }

    /**
     * Met when the added CPU with its interval stays within the target, missed when it is over even without its
     * interval; in between, this run cannot tell.
     */
    private void managementCpuVerdict(AppCalls.Way way, PerCallRun.Figure bare, PerCallRun.Figure untraced) {
        double added = untraced.cpuMicrosPerCall - bare.cpuMicrosPerCall;
        double interval = Math.hypot(bare.cpuMicrosError, untraced.cpuMicrosError);
        verdict(
                "management ≤ " + fmt(MAX_MANAGEMENT_CPU_MICROS) + " µs of CPU per call, tracing off (" + way.label
                        + ")",
                judged(added, interval, MAX_MANAGEMENT_CPU_MICROS),
                String.format(Locale.ROOT, "%+.1f µs (± %.1f)", added, interval));
    }

    private void shareOfOtelCpuVerdict(
            AppCalls.Way way, PerCallRun.Figure bare, PerCallRun.Figure warden, PerCallRun.Figure otel) {
        double wardenAdded = warden.cpuMicrosPerCall - bare.cpuMicrosPerCall;
        double otelAdded = otel.cpuMicrosPerCall - bare.cpuMicrosPerCall;
        double wardenInterval = Math.hypot(bare.cpuMicrosError, warden.cpuMicrosError);
        double otelInterval = Math.hypot(bare.cpuMicrosError, otel.cpuMicrosError);
        Boolean met;
        if (wardenAdded + wardenInterval <= MAX_SHARE_OF_OTEL_AGENT_CPU * (otelAdded - otelInterval)) {
            met = true;
        } else if (wardenAdded - wardenInterval > MAX_SHARE_OF_OTEL_AGENT_CPU * (otelAdded + otelInterval)) {
            met = false;
        } else {
            met = null;
        }
        verdict(
                "tracing on: CPU added ≤ half the OpenTelemetry agent's (" + way.label + ")",
                met,
                String.format(
                        Locale.ROOT,
                        "%+.1f µs (± %.1f) against %+.1f µs (± %.1f)",
                        wardenAdded,
                        wardenInterval,
                        otelAdded,
                        otelInterval));
    }

    /**
     * What management adds to a call, in pairs ({@link PairedRun}): per setup the API call less the other in the same
     * JVM; with the agent, that less the same difference with no agent, which is the calls' own (the token, the
     * larger body). Judged on the process's CPU with tracing off.
     */
    void management(List<PairedRun.Figure> figures) {
        md.append("\n### Management in pairs (µs per call; the API call less a call outside the API in the same JVM, "
                        + "blocks taking turns; ± the 99.9% interval over the rounds)\n\n")
                .append("| way | setup | rounds | API call: wall, process CPU | wall, pair | caller's CPU, pair "
                        + "| process CPU, pair | management: caller's CPU | management: process CPU |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (PairedRun.Figure f : figures) {
            PairedRun.Figure bare = null;
            for (PairedRun.Figure b : figures) {
                if (b.way == f.way && b.setup == AgentSetup.NO_AGENT) {
                    bare = b;
                }
            }
            boolean agent = f.setup != AgentSetup.NO_AGENT;
            PairedRun.Difference callerAdded = agent && bare != null ? f.callerCpu.less(bare.callerCpu) : null;
            PairedRun.Difference processAdded = agent && bare != null ? f.processCpu.less(bare.processCpu) : null;
            row(
                    f.way.label,
                    f.setup.label(),
                    Integer.toString(f.rounds),
                    String.format(Locale.ROOT, "%.1f, %.1f", f.managedMicros, f.managedCpuMicros),
                    difference(f.wall),
                    difference(f.callerCpu),
                    difference(f.processCpu),
                    callerAdded == null ? "" : difference(callerAdded),
                    processAdded == null ? "" : difference(processAdded));
            if (f.setup == AgentSetup.API_WARDEN_UNTRACED) {
                String target = "management ≤ " + fmt(MAX_MANAGEMENT_CPU_MICROS)
                        + " µs of CPU per call, tracing off, in pairs (" + f.way.label + ")";
                if (processAdded == null) {
                    verdicts.add("| " + target + " | no pairs without the agent (add none to --setups) "
                            + "| cannot tell (nothing to compare with) |\n");
                } else {
                    verdict(
                            target,
                            judged(processAdded.mean, processAdded.interval, MAX_MANAGEMENT_CPU_MICROS),
                            String.format(Locale.ROOT, "%+.1f µs (± %.1f)", processAdded.mean, processAdded.interval));
                }
            }
        }
    }

    private static String difference(PairedRun.Difference d) {
        return String.format(Locale.ROOT, "%+.1f ± %.1f", d.mean, d.interval);
    }

    /** @return null when the interval straddles the limit */
    static Boolean judged(double value, double interval, double limit) {
        if (Double.isNaN(value) || Double.isNaN(interval)) {
            return null;
        }
        if (value + interval <= limit) {
            return true;
        }
        return value - interval > limit ? false : null;
    }

    private static Optional<PerCallRun.Figure> withCpu(Optional<PerCallRun.Figure> f) {
        return f.filter(x -> !Double.isNaN(x.cpuMicrosPerCall));
    }

    private static String cpuCell(Optional<PerCallRun.Figure> f) {
        return f.map(x -> String.format(Locale.ROOT, "%.1f ± %.1f", x.cpuMicrosPerCall, x.cpuMicrosError))
                .orElse("");
    }

    private static String cpuAdded(Optional<PerCallRun.Figure> f, PerCallRun.Figure bare) {
        return f.map(x -> String.format(
                        Locale.ROOT,
                        "%+.1f ± %.1f",
                        x.cpuMicrosPerCall - bare.cpuMicrosPerCall,
                        Math.hypot(x.cpuMicrosError, bare.cpuMicrosError)))
                .orElse("");
    }

    /**
     * Judges a difference by its estimate and its 99.9% interval (the two runs' intervals combined).
     * Managed: met when the estimate is at most 3% over. Unmanaged: indistinguishable when the difference
     * is within 1%, or within an interval that is itself narrower than 3% (a noisier run proves nothing).
     */
    private void perCallVerdict(AppCalls.Way way, boolean managed, PerCallRun.Figure bare, PerCallRun.Figure warden) {
        double over = (warden.microsPerCall / bare.microsPerCall - 1) * 100;
        double interval = Math.hypot(bare.microsError, warden.microsError) / bare.microsPerCall * 100;
        String figure = String.format(Locale.ROOT, "%+.1f%% (± %.1f%%)", over, interval);
        if (managed) {
            // Judged with its interval, as the CPU verdicts are: an estimate within the target means nothing when
            // its interval reaches far past it.
            verdict(
                    "managed call ≤ " + fmt(MAX_MANAGED_OVERHEAD_PERCENT) + "% over the bare client (" + way.label
                            + ")",
                    judged(over, interval, MAX_MANAGED_OVERHEAD_PERCENT),
                    figure);
            return;
        }
        Boolean indistinguishable;
        if (Math.abs(over) <= UNMANAGED_TOLERANCE_PERCENT) {
            indistinguishable = true;
        } else if (Double.isNaN(interval) || interval > CONCLUSIVE_INTERVAL_PERCENT) {
            indistinguishable = null;
        } else {
            indistinguishable = Math.abs(over) <= interval;
        }
        verdict("unmanaged call indistinguishable from bare (" + way.label + ")", indistinguishable, figure);
    }

    void storms(List<StormRun.Figure> figures) {
        md.append("\n### Storms (JDK `sendAsync`, all callers at once)\n\n")
                .append("Without the agent the app has no refresh or back-off code: its failures are what the agent "
                        + "rescues, not a cost to compare.\n\n")
                .append(
                        "| storm | setup | callers | answered 200 | failed | API requests | token requests | time to all done |\n")
                .append("|---|---|---|---|---|---|---|---|\n");
        for (StormRun.Figure f : figures) {
            row(
                    f.kind.label,
                    f.setup.label(),
                    Integer.toString(f.callers),
                    Integer.toString(f.ok),
                    Integer.toString(f.failed),
                    Long.toString(f.apiRequests),
                    Long.toString(f.tokenRequests),
                    ms(f.millisToAllDone));
        }
    }

    void throttleWindows(List<ThrottleWindowRun.Figure> figures) {
        md.append(
                        "\n### A global rate-limit window already in force (JDK `sendAsync`, API Warden, tracing and metrics off)\n\n")
                .append("In each JVM one call opens (or meets) a ")
                .append(ThrottleWindowRun.WINDOW.getSeconds())
                .append(
                        " s window in which the API refuses everything; then all callers start at once. "
                                + "*During the window*: API requests that arrived while it held, the opening one not counted.\n\n")
                .append("| the API's window | JVMs × callers | answered 200 | failed | API requests during the window "
                        + "| API requests in all | time to all done |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (ThrottleWindowRun.Figure f : figures) {
            row(
                    f.mode.label,
                    f.jvms + " × " + f.callersPerJvm,
                    Integer.toString(f.ok),
                    Integer.toString(f.failed),
                    Long.toString(f.requestsDuringWindow),
                    Long.toString(f.requests),
                    ms(f.slowestMillis));
        }
    }

    /** The tables, then each target with whether this run met it. */
    String toMarkdown() {
        StringBuilder out = new StringBuilder(md);
        if (!verdicts.isEmpty()) {
            out.append("\n### Targets\n\n| target | this run | met |\n|---|---|---|\n");
            verdicts.forEach(out::append);
        }
        return out.toString();
    }

    /** @param met null when this run cannot tell (too few iterations, or too noisy) */
    private void verdict(String target, Boolean met, String figure) {
        String answer = met == null ? "cannot tell (too noisy)" : met ? "yes" : "**no**";
        verdicts.add("| " + target + " | " + figure + " | " + answer + " |\n");
    }

    private void row(String... cells) {
        md.append("| ").append(String.join(" | ", cells)).append(" |\n");
    }

    private static String cell(Optional<PerCallRun.Figure> f) {
        if (f.isEmpty()) {
            return "";
        }
        PerCallRun.Figure x = f.get();
        String allocation = Double.isNaN(x.bytesPerCall) ? "" : String.format(Locale.ROOT, ", %,.0f B", x.bytesPerCall);
        return String.format(Locale.ROOT, "%.1f ± %.1f%s", x.microsPerCall, x.microsError, allocation);
    }

    private static Optional<StartupRun.Figure> find(
            List<StartupRun.Figure> figures, AppCalls.Way way, AgentSetup setup) {
        return figures.stream().filter(f -> f.way == way && f.setup == setup).findFirst();
    }

    private static Optional<PerCallRun.Figure> find(
            List<PerCallRun.Figure> figures, AppCalls.Way way, boolean managed, AgentSetup setup) {
        return figures.stream()
                .filter(f -> f.way == way && f.managed == managed && f.setup == setup)
                .findFirst();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.0f ms", v);
    }

    private static String signedMs(double v) {
        return String.format(Locale.ROOT, "%+.0f ms", v);
    }

    private static String mb(double v) {
        return String.format(Locale.ROOT, "%.1f MB", v);
    }

    private static String signedMb(double v) {
        return String.format(Locale.ROOT, "%+.1f MB", v);
    }
}
