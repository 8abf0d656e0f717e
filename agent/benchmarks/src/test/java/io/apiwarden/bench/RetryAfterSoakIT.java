package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
        // Every refused call is resent once its window has passed, but a few (0.1-1.3% of the calls in seven
        // runs on this machine) end in the API's 429 with not_resent_reason=waits_spent: a call refused on
        // its 4th or 5th attempt closes the JVM's gate for its own back-off (1.6 s, 3.2 s), and the calls
        // held there spend their whole back-off (6.2 s). An open finding (docs/reliability.md); anything
        // but 200 or 429, or more than 3%, fails.
        assertThat(r.statuses).as(r.toMarkdown()).matches("\\{200=\\d+(,429=\\d+)?\\}");
        Matcher ended = Pattern.compile("\\{200=(\\d+)(?:,429=(\\d+))?\\}").matcher(r.statuses);
        assertThat(ended.matches()).isTrue();
        long ok = Long.parseLong(ended.group(1));
        long refused = ended.group(2) == null ? 0 : Long.parseLong(ended.group(2));
        assertThat(refused * 100).as(r.toMarkdown()).isLessThanOrEqualTo(3 * (ok + refused));
    }
}
