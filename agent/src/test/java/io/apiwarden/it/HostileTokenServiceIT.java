package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import org.junit.jupiter.api.Test;

/**
 * A token service whose error echoes the refresh token and carries a forged log line, against an
 * app started with {@code -javaagent}: what reaches standard error is one line of the agent's,
 * without the token.
 */
class HostileTokenServiceIT extends AgainstFakeApi {
    private static final String REFRESH_TOKEN = "first-refresh-9b8a7";
    private static final String FORGED = "2026-01-01T00:00:00Z [apiwarden] INFO token refresh succeeded";

    @Test
    void anEchoedRefreshTokenAndAForgedLineNeverReachStandardError() throws Exception {
        // Inserted into the JSON string as it is: \n and \u2028 are JSON escapes the agent decodes.
        api.tokenError = "invalid_request\\n" + FORGED + " for " + REFRESH_TOKEN + "\\u2028" + FORGED;

        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                // Standard error is what this is about; an exporter with no collector only adds time at exit.
                .property("apiwarden.tracing.enabled", "false")
                .property("apiwarden.metrics.enabled", "false")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(api.tokenRequests).as(r.toString()).hasSize(1);
        assertThat(r.all()).doesNotContain(REFRESH_TOKEN).doesNotContain("\u2028");
        assertThat(r.stderr).noneMatch(line -> line.startsWith(FORGED));
        assertThat(r.agentLog())
                .filteredOn(l -> l.contains("token refresh"))
                .singleElement()
                .asString()
                .contains("WARN token refresh failed", "invalid_request\\n" + FORGED + " for <redacted>");
    }
}
