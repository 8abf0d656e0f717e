package io.apiwarden.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KnownSecretsTest {
    @Test
    void aRememberedSecretIsCutOutOfAnyText() {
        KnownSecrets.remember("refresh-5f1e9a77c3");

        assertThat(KnownSecrets.scrub("error: refresh-5f1e9a77c3 is revoked"))
                .isEqualTo("error: <redacted> is revoked");
        assertThat(KnownSecrets.scrub("nothing secret")).isEqualTo("nothing secret");
    }

    @Test
    void shortValuesAreNotTreatedAsSecrets() {
        KnownSecrets.remember("r-1");

        assertThat(KnownSecrets.scrub("error r-1")).isEqualTo("error r-1");
    }

    @Test
    void onlyTheNewestAreRememberedSoTheScanStaysCheap() {
        KnownSecrets.remember("oldest-secret-0000");
        for (int i = 0; i < KnownSecrets.REMEMBERED; i++) {
            KnownSecrets.remember("rotated-secret-" + (1000 + i));
        }

        assertThat(KnownSecrets.scrub("oldest-secret-0000")).isEqualTo("oldest-secret-0000");
        assertThat(KnownSecrets.scrub("rotated-secret-" + (1000 + KnownSecrets.REMEMBERED - 1)))
                .isEqualTo(KnownSecrets.MARK);
    }

    @Test
    void aLogLineNeverHoldsALineBreakOrAKnownSecret() {
        KnownSecrets.remember("access-77aa88bb99");

        String line = AgentLog.line(
                AgentLog.Level.WARN,
                "the server said: access-77aa88bb99\r\n2026-01-01T00:00:00Z [apiwarden] INFO forged\u2028too",
                null);

        assertThat(line)
                .doesNotContain("access-77aa88bb99", "\n", "\r", "\u2028")
                .contains("<redacted>");
    }
}
