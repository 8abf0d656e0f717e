package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class PairedRunTest {

    @Test
    void eachRoundIsAPairAndTheFigureIsTheirMeanDifference() {
        // Per round: managed calls, unmanaged calls, then wall, caller CPU and process CPU (ns), managed then
        // unmanaged.
        List<String> lines = List.of(
                "some other output",
                "paired 100 200 10000000 18000000 5000000 9000000 8000000 14000000",
                "paired 100 100 12000000 10000000 6000000 5000000 9000000 8000000",
                "paired 200 100 22000000 10000000 11000000 5000000 18000000 8000000",
                PairedLoad.DONE_LINE);

        PairedRun.Figure f = PairedRun.figureOf(AppCalls.Way.JDK_SEND, AgentSetup.API_WARDEN_UNTRACED, lines);

        assertThat(f.rounds).isEqualTo(3);
        // Wall per call: managed 100, 120, 110 µs against 90, 100, 100 µs.
        assertThat(f.wall.mean).isCloseTo((10 + 20 + 10) / 3.0, within(1e-9));
        // Caller's CPU: 50, 60, 55 against 45, 50, 50.
        assertThat(f.callerCpu.mean).isCloseTo((5 + 10 + 5) / 3.0, within(1e-9));
        // Process CPU: 80, 90, 90 against 70, 80, 80.
        assertThat(f.processCpu.mean).isCloseTo(10, within(1e-9));
        assertThat(f.processCpu.interval).isZero();
        assertThat(f.managedMicros).isCloseTo(44_000_000 / 1000.0 / 400, within(1e-9));
        assertThat(f.managedCpuMicros).isCloseTo(35_000_000 / 1000.0 / 400, within(1e-9));
    }

    @Test
    void theIntervalIsStudentsAtNinetyNinePointNinePercent() {
        PairedRun.Difference d = PairedRun.Difference.of(List.of(1.0, 2.0, 3.0));

        assertThat(d.mean).isEqualTo(2.0);
        // Standard deviation 1; t(0.9995, 2 degrees of freedom) = 31.599 from the tables.
        assertThat(d.interval).isCloseTo(31.599 / Math.sqrt(3), within(0.01));
    }

    @Test
    void aDifferenceLessItsBaselineCombinesTheIntervals() {
        PairedRun.Difference d = new PairedRun.Difference(5.0, 0.3).less(new PairedRun.Difference(2.0, 0.4));

        assertThat(d.mean).isCloseTo(3.0, within(1e-9));
        assertThat(d.interval).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void oneRoundHasNoInterval() {
        assertThat(PairedRun.Difference.of(List.of(4.0)).interval).isNaN();
    }

    @Test
    void aProbeThatPrintedNoRoundIsAFailureNamed() {
        assertThatThrownBy(() -> PairedRun.figureOf(
                        AppCalls.Way.OKHTTP_EXECUTE, AgentSetup.API_WARDEN_UNTRACED, List.of("paired-done")))
                .hasMessageContaining("no rounds");
    }
}
