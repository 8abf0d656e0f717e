package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The soak in short (the full one is {@code java -jar apiwarden-benchmarks.jar --soak}, see
 * docs/reliability.md): the same calls, expiries and throttle windows, {@value #SOAK_CALLS} calls with
 * {@code -Psoak}, {@code apiwarden.bench.soak-calls} (the pom's smoke size) in the default build. Counts and
 * bounds only, no timings.
 */
class SoakIT {
    static final long SOAK_CALLS = 20_000;
    private static final long CALLS = Long.getLong("apiwarden.bench.soak-calls", SOAK_CALLS);
    /** Between half and the end: a connection or pool thread more is noise, one per call or per refresh is not. */
    private static final int THREADS_MARGIN = 4;

    private static final int FILE_DESCRIPTORS_MARGIN = 4;
    /** The spans waiting for export and the meters vary by a few hundred KB; 10,000 calls leaking 400 B each would not fit. */
    private static final long HEAP_MARGIN_BYTES = 4L * 1024 * 1024;

    @Test
    void everyCallEndsIn200WithOneTokenRequestPerExpiryAndNothingGrows() throws Exception {
        Path agentJar = Paths.get(System.getProperty(BenchmarkSuite.AGENT_JAR_PROPERTY, "missing"));
        assertThat(agentJar)
                .as("the agent jar, built by the agent module before this one (run ./mvnw verify from the root)")
                .isRegularFile();

        SoakRun.Result r = SoakRun.run(agentJar, CALLS, SoakRun.TOKEN_LIFETIME);

        assertThat(r.statuses).as(r.toMarkdown()).isEqualTo("{200=" + CALLS + "}");
        assertThat(r.throttleWindows)
                .as("a window every %d API calls", SoakRun.THROTTLE_EVERY)
                .isGreaterThanOrEqualTo(CALLS / SoakRun.THROTTLE_EVERY);
        assertThat(r.throttledCalls).isPositive();
        assertThat(r.expiries)
                .as("the first token expires %s after the server starts", SoakRun.TOKEN_LIFETIME)
                .isPositive();
        // Every token but the one in use at the end (and the one before, if it was replaced ahead of its expiry)
        // had expired by the last call: one token request per expiry.
        assertThat(r.tokenRequests).as(r.toMarkdown()).isBetween(r.expiries, r.expiries + 1);
        assertThat(r.earlyTokenRequests)
                .as("token requests in the first half of a token's life")
                .isZero();
        assertThat(r.refusedGrants)
                .as("refreshes with a refresh token already rotated away")
                .isZero();
        assertThat(r.end.threads).as(r.toMarkdown()).isLessThanOrEqualTo(r.middle.threads + THREADS_MARGIN);
        assertThat(r.end.fileDescriptors)
                .as(r.toMarkdown())
                .isLessThanOrEqualTo(r.middle.fileDescriptors + FILE_DESCRIPTORS_MARGIN);
        assertThat(r.end.heapBytes).as(r.toMarkdown()).isLessThanOrEqualTo(r.middle.heapBytes + HEAP_MARGIN_BYTES);
    }
}
