package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole demo against the real agent jar: the app, which has no auth code, must end with every
 * call answered 200. The agent module builds first in the reactor, so its jar is there.
 */
class DemoIT {
    private static final Pattern REFRESHES = Pattern.compile("token refreshes\\s*:\\s*(\\d+)");

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void appEndsWithEveryCallAnswered200AndTheAgentRefreshedTheToken() throws Exception {
        Path agentJar = Paths.get(System.getProperty(
                        AgentJarLocator.AGENT_JAR_PROPERTY, "../" + AgentJarLocator.AGENT_JAR_IN_PROJECT))
                .toAbsolutePath()
                .normalize();
        assertThat(agentJar)
                .as("the agent jar: build the whole project (./mvnw verify)")
                .isRegularFile();

        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        DemoLauncher.Result result;
        try (PrintStream out = new PrintStream(new Tee(captured, System.out), true, StandardCharsets.UTF_8)) {
            result = new DemoLauncher(agentJar, AgentJarLocator.demoCodeSource(), out).run();
        }
        String report = captured.toString(StandardCharsets.UTF_8);

        assertThat(result.exitCode).as("app exit code; its output:%n%s", report).isZero();
        Matcher refreshes = REFRESHES.matcher(report);
        assertThat(refreshes.find())
                .as("report has a refresh count:%n%s", report)
                .isTrue();
        assertThat(Integer.parseInt(refreshes.group(1)))
                .as("after the stale token, and after expiry")
                .isGreaterThanOrEqualTo(2);
        assertThat(result.counters.tokensIssued()).isGreaterThanOrEqualTo(2);
        assertThat(result.counters.unauthorized())
                .as("the stale first token met OAuth invalid token")
                .isPositive();
        assertThat(result.counters.rateLimited())
                .as("the burst met the global rate limit")
                .isPositive();
        assertThat(result.payments.rateLimited())
                .as("the first API's rate limit is its own: the payments API refused none")
                .isZero();
        assertThat(result.payments.apiRequests())
                .as("each payments call answered at once, with its own API's token")
                .isEqualTo(DemoProgram.PAYMENTS_CALLS);
        assertThat(result.payments.tokenRequests())
                .as("the payments token came from its own token service")
                .isPositive();
        assertThat(report.split("\n"))
                .filteredOn(line -> line.contains("via sendAsync to payments -> status 200"))
                .hasSize(DemoProgram.PAYMENTS_CALLS);
        int calls = DemoProgram.TOTAL_CALLS + DemoProgram.PAYMENTS_CALLS;
        assertThat(report)
                .containsPattern(
                        "summary: " + calls
                                + " calls, \\d+ ended in 200, \\d+ failed at the proxy \\(not the agent's to rescue\\), 0 other failures")
                .contains("holds the latest rotated refresh token")
                .contains("via OkHttp execute -> status")
                .contains("via OkHttp enqueue -> status")
                .containsPattern("traces +: \\d+ spans printed by the console exporter")
                .containsPattern("back-off waits +: [1-9]\\d* calls waited, [1-9]\\d* ms in all")
                .contains("status classes: {2xx=");
        assertThat(result.counters.proxyErrors())
                .as("the edge proxy failed at least one request")
                .isPositive();
        assertThat(result.fleet.replicasAllOk)
                .as("fleet replicas with every call 200")
                .isEqualTo(FleetScene.REPLICAS);
        assertThat(result.fleet.counters.grantsRefused())
                .as("no replica logged out by another's rotation")
                .isZero();
        // One per token the replicas needed, not one per replica: ROUNDS when the replicas' rounds meet. A replica
        // whose JVM started seconds late on a busy machine finds its round's token expired and asks once more (seen
        // at a load of 16 while other modules built beside the demo); one per replica per round would mean no
        // sharing at all.
        assertThat(result.fleet.counters.tokenRequests())
                .as("token requests of the fleet: one per token the replicas needed, not one per replica")
                .isBetween((long) FleetProgram.ROUNDS, (long) FleetScene.REPLICAS * FleetProgram.ROUNDS - 1);
        assertThat(report)
                .contains("fleet report")
                .contains("refresh-token file       : holds the latest rotated refresh token");
    }

    /** Keeps the demo's output for the assertions and shows it in the build log as it happens. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
