package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The whole-process probes end to end, with the real agent jar in fresh JVMs: what the benchmark reports is
 * what the agent did. Counts only; the timings belong to the benchmark's report.
 */
class ProbesIT {
    private static Path agentJar;

    @BeforeAll
    static void agentJar() {
        agentJar = Paths.get(System.getProperty(BenchmarkSuite.AGENT_JAR_PROPERTY, "missing"));
        assertThat(agentJar)
                .as("the agent jar, built by the agent module before this one (run ./mvnw verify from the root)")
                .isRegularFile();
    }

    @Test
    void theStartupProbeReportsAManagedCallAndThePeakMemory() throws Exception {
        try (OtlpSink sink = OtlpSink.start();
                FastApiServer api = FastApiServer.start()) {
            Target target = new Target(
                    api.baseUrl(), api.authUrl(), api.healthUrl(), api.accessToken(), sink.endpoint(), agentJar, null);

            List<StartupRun.Figure> figures = new StartupRun(target, 1)
                    .run(List.of(AgentSetup.NO_AGENT, AgentSetup.API_WARDEN), AppCalls.Way.OKHTTP_EXECUTE);

            assertThat(figures).extracting(f -> f.setup).containsExactly(AgentSetup.NO_AGENT, AgentSetup.API_WARDEN);
            for (StartupRun.Figure f : figures) {
                assertThat(f.millisToFirstCall).isPositive().isLessThanOrEqualTo(f.millisToExit);
                assertThat(f.peakRssMb).isGreaterThan(10);
            }
            // Both calls carried the right token: the app's own once, the agent's once (each probe checked for 200).
            assertThat(api.apiRequests()).isEqualTo(2);
            assertThat(api.unauthorized()).isZero();
        }
    }

    @Test
    void thePairedProbeMeasuresManagedAndUnmanagedCallsTakingTurns() throws Exception {
        try (OtlpSink sink = OtlpSink.start();
                FastApiServer api = FastApiServer.start()) {
            Target target = new Target(
                    api.baseUrl(), api.authUrl(), api.healthUrl(), api.accessToken(), sink.endpoint(), agentJar, null);

            List<PairedRun.Figure> figures = new PairedRun(target, 3, 100)
                    .run(
                            List.of(AgentSetup.NO_AGENT, AgentSetup.API_WARDEN_UNTRACED),
                            Set.of(AppCalls.Way.OKHTTP_EXECUTE));

            // Both setups: the agent's pairs, and the bare ones they are compared with; two rounds measured each.
            assertThat(figures)
                    .extracting(f -> f.setup)
                    .containsExactly(AgentSetup.NO_AGENT, AgentSetup.API_WARDEN_UNTRACED);
            for (PairedRun.Figure f : figures) {
                assertThat(f.rounds).isEqualTo(2);
                assertThat(f.managedMicros).isPositive();
                assertThat(f.managedCpuMicros).isPositive();
            }
            // Every API call carried a token, the app's own or the agent's (the probe fails on anything but 200).
            assertThat(api.apiRequests()).isPositive();
            assertThat(api.unauthorized()).isZero();
        }
    }

    @Test
    void aRefreshStormCostsOneTokenRequestAndEveryCallSucceeds() throws Exception {
        try (OtlpSink sink = OtlpSink.start()) {
            StormRun storms = new StormRun(agentJar, sink.endpoint());

            StormRun.Figure warden = storms.run(StormRun.Kind.REFRESH, AgentSetup.API_WARDEN, 20);
            StormRun.Figure bare = storms.run(StormRun.Kind.REFRESH, AgentSetup.NO_AGENT, 20);

            assertThat(warden.tokenRequests).isEqualTo(1);
            assertThat(warden.ok).isEqualTo(20);
            // Each call that left before the refresh is sent twice; one that left after it, once.
            assertThat(warden.apiRequests).isBetween(21L, 40L);
            assertThat(bare.ok).isZero();
            assertThat(bare.apiRequests).isEqualTo(20);
        }
    }

    /** About a minute: the agent holds the throttled half until the API's one-minute window resets. Runs with -Psoak. */
    @Test
    @Tag("soak")
    void aThrottleStormResendsOnlyTheThrottledCalls() throws Exception {
        try (OtlpSink sink = OtlpSink.start()) {
            StormRun storms = new StormRun(agentJar, sink.endpoint());

            StormRun.Figure warden = storms.run(StormRun.Kind.THROTTLE, AgentSetup.API_WARDEN, 20);
            StormRun.Figure bare = storms.run(StormRun.Kind.THROTTLE, AgentSetup.NO_AGENT, 20);

            assertThat(warden.ok).isEqualTo(20);
            // Half pass, half are throttled; each throttled call waits out Retry-After and is resent once.
            assertThat(warden.apiRequests).isEqualTo(30);
            assertThat(bare.ok).isEqualTo(10);
            assertThat(bare.failed).isEqualTo(10);
        }
    }

    @Test
    void aWindowRunCountsWhatReachedTheApiWhileItsWindowHeld() throws Exception {
        ThrottleWindowRun windows = new ThrottleWindowRun(agentJar);

        ThrottleWindowRun.Figure f = windows.run(ThrottleWindowApi.Mode.RETRY_AFTER, 1, 10);

        assertThat(f.ok).as("every call is answered once the window is over").isEqualTo(10);
        assertThat(f.failed).isZero();
        // The opening call is refused and closes the gate: the callers wait at it, the opening call's
        // resend goes first when the window ends, and its success lets them all go.
        assertThat(f.requestsDuringWindow).isZero();
        assertThat(f.requests).isEqualTo(1 + 1 + 10);
        assertThat(f.slowestMillis)
                .as("the callers waited for the window's end")
                .isGreaterThanOrEqualTo(ThrottleWindowRun.WINDOW.toMillis() - 1000);
    }
}
