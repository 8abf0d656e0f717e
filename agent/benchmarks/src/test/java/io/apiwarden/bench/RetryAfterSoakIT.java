package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The Retry-After soak in short (the full one is {@code java -jar apiwarden-benchmarks.jar --retry-after-soak},
 * 10,000 resends; see docs/benchmarks.md): throttle windows until {@value #SOAK_RESENDS} refused calls were
 * resent with {@code -Psoak} ({@code apiwarden.bench.retry-after-resends}, the pom's smoke size, in the
 * default build), and not one of them before its {@code Retry-After} allowed.
 */
class RetryAfterSoakIT {
    static final long SOAK_RESENDS = 300;
    private static final long RESENDS = Long.getLong("apiwarden.bench.retry-after-resends", SOAK_RESENDS);

    @Test
    void noResendComesBeforeRetryAfterAllowsIt() throws Exception {
        Path agentJar = Paths.get(System.getProperty(BenchmarkSuite.AGENT_JAR_PROPERTY, "missing"));
        assertThat(agentJar)
                .as("the agent jar, built by the agent module before this one (run ./mvnw verify from the root)")
                .isRegularFile();

        RetryAfterSoakRun.Result r = RetryAfterSoakRun.run(agentJar, RESENDS);

        assertThat(r.resends).as(r.toMarkdown()).isGreaterThanOrEqualTo(RESENDS);
        assertThat(r.windows).as(r.toMarkdown()).isGreaterThanOrEqualTo(2);
        assertThat(r.earlyResends).as(r.toMarkdown()).isZero();
        assertThat(r.leastMarginMillis).as(r.toMarkdown()).isNotNegative();
        // Every refused call was resent once its window had passed and answered then.
        assertThat(r.statuses).as(r.toMarkdown()).matches("\\{200=\\d+\\}");
    }
}
