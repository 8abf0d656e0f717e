package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    @Test
    void perCallTableComparesWithBothAndJudgesTheTargets() {
        Report report = new Report("## header");
        report.perCall(List.of(
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 100, 1),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN, 105, 1),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.OTEL_AGENT, 150, 2)));

        String md = report.toMarkdown();

        assertThat(md)
                .contains("| JDK send | managed | 100.0 ± 1.0, 1,000 B | 105.0 ± 1.0, 1,000 B |  |  "
                        + "| 150.0 ± 2.0, 1,000 B | +5.0% | 0.70x |");
        assertThat(md).contains("| managed call ≤ 3% over the bare client (JDK send) | +5.0% (± 1.4%) | **no** |");
    }

    @Test
    void aManagedCallWithinTheTargetOnlyByItsEstimateCannotBeJudged() {
        Report report = new Report("## header");
        report.perCall(List.of(
                // −7% over the bare client, but ± 24%: the interval reaches far past 3%.
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 100, 17),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN, 93, 17),
                // +1% ± 1.4%: within 3% with its interval.
                perCall(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.NO_AGENT, 100, 1),
                perCall(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.API_WARDEN, 101, 1)));

        String md = report.toMarkdown();

        assertThat(md)
                .contains("| managed call ≤ 3% over the bare client (JDK send) | -7.0% (± 24.0%) "
                        + "| cannot tell (too noisy) |")
                .contains("| managed call ≤ 3% over the bare client (OkHttp execute) | +1.0% (± 1.4%) | yes |");
    }

    @Test
    void anUnmanagedCallIsJudgedIndistinguishableOnlyWhenTheRunCanTell() {
        Report report = new Report("## header");
        report.perCall(List.of(
                // Within 1%: the same, whatever the noise.
                perCall(AppCalls.Way.JDK_SEND, false, AgentSetup.NO_AGENT, 100, 9),
                perCall(AppCalls.Way.JDK_SEND, false, AgentSetup.API_WARDEN, 100.5, 9),
                // 2% apart, with an interval of 1.4%: a real difference.
                perCall(AppCalls.Way.JDK_SEND_ASYNC, false, AgentSetup.NO_AGENT, 100, 1),
                perCall(AppCalls.Way.JDK_SEND_ASYNC, false, AgentSetup.API_WARDEN, 102, 1),
                // 2% apart, with an interval of 7%: this run cannot tell.
                perCall(AppCalls.Way.OKHTTP_EXECUTE, false, AgentSetup.NO_AGENT, 100, 5),
                perCall(AppCalls.Way.OKHTTP_EXECUTE, false, AgentSetup.API_WARDEN, 102, 5)));

        String md = report.toMarkdown();

        assertThat(md).contains("| unmanaged call indistinguishable from bare (JDK send) | +0.5% (± 12.7%) | yes |");
        assertThat(md)
                .contains("| unmanaged call indistinguishable from bare (JDK sendAsync) | +2.0% (± 1.4%) | **no** |");
        assertThat(md)
                .contains("| unmanaged call indistinguishable from bare (OkHttp execute) | +2.0% (± 7.1%) "
                        + "| cannot tell (too noisy) |");
    }

    @Test
    void cpuTableShowsWhatEachAgentAddsAndJudgesOnlyWhatItsIntervalsAllow() {
        Report report = new Report("## header");
        report.perCallCpu(List.of(
                // JDK send: management +2.0 ± 0.5 µs (met); tracing on +10 against the OpenTelemetry agent's +30.
                cpu(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 40, 0.3),
                cpu(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN_UNTRACED, 42, 0.4),
                cpu(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN, 50, 0.4),
                cpu(AppCalls.Way.JDK_SEND, true, AgentSetup.OTEL_AGENT, 70, 0.4),
                // OkHttp: management +5 µs, well over; tracing on +25 against +30, over half.
                cpu(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.NO_AGENT, 30, 0.3),
                cpu(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.API_WARDEN_UNTRACED, 35, 0.4),
                cpu(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.API_WARDEN, 55, 0.4),
                cpu(AppCalls.Way.OKHTTP_EXECUTE, true, AgentSetup.OTEL_AGENT, 60, 0.4),
                // Reactor Netty: management +2.5 µs, but ± 4: this run cannot tell.
                cpu(AppCalls.Way.REACTOR_NETTY, true, AgentSetup.NO_AGENT, 30, 3),
                cpu(AppCalls.Way.REACTOR_NETTY, true, AgentSetup.API_WARDEN_UNTRACED, 32.5, 3)));

        String md = report.toMarkdown();

        assertThat(md)
                .contains("| JDK send | managed | 40.0 ± 0.3 | 50.0 ± 0.4 | 42.0 ± 0.4 | 70.0 ± 0.4 "
                        + "| +2.0 ± 0.5 | +10.0 ± 0.5 | +30.0 ± 0.5 |");
        assertThat(md)
                .contains("| management ≤ 3 µs of CPU per call, tracing off (JDK send) | +2.0 µs (± 0.5) | yes |")
                .contains("| management ≤ 3 µs of CPU per call, tracing off (OkHttp execute) | +5.0 µs (± 0.5) "
                        + "| **no** |")
                .contains("| management ≤ 3 µs of CPU per call, tracing off (Reactor Netty (blocked on)) "
                        + "| +2.5 µs (± 4.2) | cannot tell (too noisy) |")
                .contains("| tracing on: CPU added ≤ half the OpenTelemetry agent's (JDK send) "
                        + "| +10.0 µs (± 0.5) against +30.0 µs (± 0.5) | yes |")
                .contains("| tracing on: CPU added ≤ half the OpenTelemetry agent's (OkHttp execute) "
                        + "| +25.0 µs (± 0.5) against +30.0 µs (± 0.5) | **no** |");
    }

    @Test
    void aFigureWithoutCpuLeavesTheCpuTableOut() {
        Report report = new Report("## header");
        report.perCallCpu(List.of(
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 100, 1),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN, 105, 1)));

        assertThat(report.toMarkdown())
                .doesNotContain("the app's CPU")
                .doesNotContain("| JDK send |")
                .doesNotContain("µs of CPU");

        // The bare client's CPU alone: nothing to set beside it, so no table either.
        Report bareOnly = new Report("## header");
        bareOnly.perCallCpu(List.of(cpu(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 40, 0.3)));

        assertThat(bareOnly.toMarkdown()).doesNotContain("the app's CPU");
    }

    @Test
    void managementInPairsIsTheAgentsPairLessTheBareOneJudgedOnTheProcessCpuWithTracingOff() {
        Report report = new Report("## header");
        report.management(List.of(
                // The calls' own difference with no agent: the token and the larger body.
                paired(AppCalls.Way.OKHTTP_EXECUTE, AgentSetup.NO_AGENT, 1.0, 0.5, 1.0, 0.6),
                paired(AppCalls.Way.OKHTTP_EXECUTE, AgentSetup.API_WARDEN_UNTRACED, 4.0, 0.5, 6.0, 0.8),
                paired(AppCalls.Way.JDK_SEND, AgentSetup.NO_AGENT, 0.5, 0.3, 0.5, 0.3),
                paired(AppCalls.Way.JDK_SEND, AgentSetup.API_WARDEN_UNTRACED, 2.0, 0.4, 2.0, 0.4),
                // Tracing on: tabled, not judged against the management target.
                paired(AppCalls.Way.JDK_SEND, AgentSetup.API_WARDEN, 10, 0.4, 25, 1.2),
                // No pairs without the agent for this way: nothing to judge with.
                paired(AppCalls.Way.REACTOR_NETTY, AgentSetup.API_WARDEN_UNTRACED, 1.0, 0.1, 1.0, 0.1)));

        String md = report.toMarkdown();

        assertThat(md)
                .contains("| OkHttp execute | " + AgentSetup.API_WARDEN_UNTRACED.label()
                        + " | 80 | 90.5, 70.3 | +4.5 ± 1.0 | +4.0 ± 0.5 | +6.0 ± 0.8 | +3.0 ± 0.7 | +5.0 ± 1.0 |")
                .contains("| OkHttp execute | " + AgentSetup.NO_AGENT.label()
                        + " | 80 | 90.5, 70.3 | +4.5 ± 1.0 | +1.0 ± 0.5 | +1.0 ± 0.6 |  |  |")
                .contains("| management ≤ 3 µs of CPU per call, tracing off, in pairs (OkHttp execute) "
                        + "| +5.0 µs (± 1.0) | **no** |")
                .contains(
                        "| management ≤ 3 µs of CPU per call, tracing off, in pairs (JDK send) | +1.5 µs (± 0.5) | yes |")
                .contains(
                        "| management ≤ 3 µs of CPU per call, tracing off, in pairs (Reactor Netty (blocked on)) "
                                + "| no pairs without the agent (add none to --setups) | cannot tell (nothing to compare with) |")
                .contains("| JDK send | " + AgentSetup.API_WARDEN.label()
                        + " | 80 | 90.5, 70.3 | +4.5 ± 1.0 | +10.0 ± 0.4 | +25.0 ± 1.2 | +9.5 ± 0.5 | +24.5 ± 1.2 |");
        assertThat(md).containsOnlyOnce("in pairs (JDK send)");
    }

    private static PairedRun.Figure paired(
            AppCalls.Way way,
            AgentSetup setup,
            double callerCpu,
            double callerInterval,
            double processCpu,
            double processInterval) {
        return new PairedRun.Figure(
                way,
                setup,
                80,
                90.5,
                70.25,
                new PairedRun.Difference(4.5, 1.0),
                new PairedRun.Difference(callerCpu, callerInterval),
                new PairedRun.Difference(processCpu, processInterval));
    }

    @Test
    void startupTableShowsWhatEachAgentAdds() {
        Report report = new Report("## header");
        report.startup(List.of(
                new StartupRun.Figure(AgentSetup.NO_AGENT, AppCalls.Way.JDK_SEND, 400, 450, 60),
                new StartupRun.Figure(AgentSetup.API_WARDEN, AppCalls.Way.JDK_SEND, 650, 700, 95)));

        String md = report.toMarkdown();

        assertThat(md).contains("| JDK send | API Warden | 650 ms (+250 ms) | 700 ms (+250 ms) | 95.0 MB (+35.0 MB) |");
        assertThat(md).contains("| start-up added ≤ 300 ms (JDK send) | +250 ms | yes |");
        assertThat(md).contains("| peak RSS added ≤ 30.0 MB (JDK send) | +35.0 MB | **no** |");
    }

    @Test
    void jarSizeIsJudged() {
        Report report = new Report("## header");
        report.jarSizes(9.5, 24);

        assertThat(report.toMarkdown())
                .contains("| API Warden | 9.5 MB |")
                .contains("| agent jar ≤ 10 MB | 9.5 MB | yes |");
    }

    private static PerCallRun.Figure perCall(
            AppCalls.Way way, boolean managed, AgentSetup setup, double micros, double error) {
        return new PerCallRun.Figure(way, managed, setup, micros, error, 1000, Double.NaN, Double.NaN);
    }

    private static PerCallRun.Figure cpu(
            AppCalls.Way way, boolean managed, AgentSetup setup, double cpuMicros, double cpuError) {
        return new PerCallRun.Figure(way, managed, setup, 100, 50, 1000, cpuMicros, cpuError);
    }
}
