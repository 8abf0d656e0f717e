package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The app on its own, without the agent: every call fails, and the app says so in its exit code. */
class DemoProgramTest {
    private static final int ALL_CALLS = DemoProgram.TOTAL_CALLS;

    @Test
    void withoutTheAgentEveryCallIsUnauthorizedAndTheExitCodeIsOne() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start();
                PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {

            int exitCode = new DemoProgram(api.baseUrl(), Duration.ZERO, out).callAll();

            String output = bytes.toString(StandardCharsets.UTF_8);
            assertThat(exitCode).isEqualTo(1);
            assertThat(output)
                    .contains("call 1 via send -> status 401, X-Request-Id ")
                    .contains("call 3 via sendAsync -> status 401, X-Request-Id ")
                    .contains("via OkHttp execute -> status 401")
                    .contains("via OkHttp enqueue -> status 401")
                    .contains("summary: " + ALL_CALLS
                            + " calls, 0 ended in 200, 0 failed at the proxy (not the agent's to rescue), " + ALL_CALLS
                            + " other failures")
                    .doesNotContain(api.currentRefreshToken());
            assertThat(api.counters().unauthorized()).isEqualTo(ALL_CALLS);
            assertThat(api.counters().tokenRequests())
                    .as("the app has no auth code")
                    .isZero();
        }
    }

    @Test
    void unreachableApiIsReportedPerCall() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        URI closedBase;
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start()) {
            closedBase = api.baseUrl();
        }
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            int exitCode = new DemoProgram(closedBase, Duration.ZERO, out).callAll();

            assertThat(exitCode).isEqualTo(1);
            assertThat(bytes.toString(StandardCharsets.UTF_8))
                    .contains("call 1 via send -> failed: java.net.ConnectException");
        }
    }

    @Test
    void missingBaseUrlIsAUsageError() throws IOException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int exitCode = DemoProgram.run(new String[0], System.out, errStream);

            assertThat(exitCode).isEqualTo(2);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("-Dapiwarden.base-url=");
        }
    }
}
