package io.apiwarden.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReportTest {

    @Test
    void perCallTableComparesWithBothAndJudgesTheTargets() {
        Report report = new Report("## header");
        report.perCall(List.of(
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.NO_AGENT, 100, 1),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.API_WARDEN, 105, 1),
                perCall(AppCalls.Way.JDK_SEND, true, AgentSetup.OTEL_AGENT, 150, 2),
                perCall(AppCalls.Way.JDK_SEND, false, AgentSetup.NO_AGENT, 80, 1),
                perCall(AppCalls.Way.JDK_SEND, false, AgentSetup.API_WARDEN, 81, 1)));

        String md = report.toMarkdown();

        assertThat(md).contains("| JDK send | managed | 100.0 ± 1.0, 1,000 B | 105.0 ± 1.0, 1,000 B "
                + "| 150.0 ± 2.0, 1,000 B | +5.0% | 0.70x |");
        assertThat(md).contains("| managed call ≤ 3% over the bare client (JDK send) | +5.0% | **no** |");
        assertThat(md).contains("| unmanaged call indistinguishable from bare (JDK send) | +1.2%, within the error intervals | yes |");
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

        assertThat(report.toMarkdown()).contains("| API Warden | 9.5 MB |").contains("| agent jar ≤ 10 MB | 9.5 MB | yes |");
    }

    private static PerCallRun.Figure perCall(AppCalls.Way way, boolean managed, AgentSetup setup, double micros,
                                             double error) {
        return new PerCallRun.Figure(way, managed, setup, micros, error, 1000);
    }
}
