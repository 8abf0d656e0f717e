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
        // Every refused call is resent once its window has passed, but a call that meets window after
        // window spends its whole back-off (6.2 s here) and ends in the API's 429 (waits_spent). Before the
        // gate closed for the server's Retry-After and let late refusals be, 0.55-4.6% of the calls did
        // (three runs of 1,000 resends; 13 of 433 failed this test once); now 0-0.07%, and 0 in three runs
        // of this size (docs/reliability.md). Anything but 200 or 429, or more than 1%, fails.
        assertThat(r.statuses).as(r.toMarkdown()).matches("\\{200=\\d+(,429=\\d+)?\\}");
        Matcher ended = Pattern.compile("\\{200=(\\d+)(?:,429=(\\d+))?\\}").matcher(r.statuses);
        assertThat(ended.matches()).isTrue();
        long ok = Long.parseLong(ended.group(1));
        long refused = ended.group(2) == null ? 0 : Long.parseLong(ended.group(2));
        assertThat(refused * 100).as(r.toMarkdown()).isLessThanOrEqualTo(ok + refused);
    }
}
