package io.apiwarden.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ApiLogTest {
    @Test
    void withSeveralApisEachLineNamesItsApi() {
        try (LogCapture log = LogCapture.at("debug")) {
            ApiLog.of("payments", true).warn("token refresh failed: timed out");

            assertThat(log.text()).contains(" [apiwarden] WARN [api payments] token refresh failed: timed out");
        }
    }

    @Test
    void withOneApiLinesAreAsTheyWereAndTheLogIsShared() {
        try (LogCapture log = LogCapture.at("debug")) {
            ApiLog only = ApiLog.of("default", false);
            only.error("token refresh refused for good");

            assertThat(only).isSameAs(ApiLog.UNNAMED);
            assertThat(log.text()).contains(" [apiwarden] ERROR token refresh refused for good");
        }
    }

    @Test
    void aMessageSaidOnceIsSaidOnceForEachApi() {
        try (LogCapture log = LogCapture.at("warn")) {
            // Keys are said once per JVM: a key of this run alone, so that a rerun of the case says it again.
            String key = "api-log-test-once-" + System.nanoTime();
            ApiLog crm = ApiLog.of("crm", true);
            ApiLog payments = ApiLog.of("payments", true);
            for (int i = 0; i < 3; i++) {
                crm.once(AgentLog.Level.WARN, key, "the store is away", null);
                payments.once(AgentLog.Level.WARN, key, "the store is away", null);
            }

            assertThat(log.text().split("\n"))
                    .filteredOn(line -> line.contains("the store is away"))
                    .hasSize(2)
                    .anyMatch(line -> line.contains("[api crm] "))
                    .anyMatch(line -> line.contains("[api payments] "));
        }
    }

    @Test
    void linesBelowTheLevelAreNotWritten() {
        try (LogCapture log = LogCapture.at("warn")) {
            ApiLog.of("payments", true).debug("access token refreshed");

            assertThat(log.text()).isEmpty();
        }
    }
}
