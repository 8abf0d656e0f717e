package io.apiwarden.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerTextTest {
    private static final String REFRESH = "rt_Q2xpZW50U2VjcmV0LWZvci10ZXN0cw";
    private static final String CLIENT_SECRET = "cs-7Hq2mZ0pLx";

    @Test
    void everyOccurrenceOfEverySecretIsRedacted() {
        String text = "refresh_token " + REFRESH + " is unknown; secret=" + CLIENT_SECRET + "; again " + REFRESH;

        String safe = ServerText.of(text, REFRESH, CLIENT_SECRET);

        assertThat(safe)
                .doesNotContain(REFRESH)
                .doesNotContain(CLIENT_SECRET)
                .isEqualTo("refresh_token <redacted> is unknown; secret=<redacted>; again <redacted>");
    }

    @Test
    void aSecretThatContainsAnotherIsRedactedWhole() {
        String inner = REFRESH.substring(0, 12);

        // Given shortest first: the longer secret must still go whole, leaving no tail behind.
        assertThat(ServerText.of("x" + REFRESH + "y", inner, REFRESH)).isEqualTo("x<redacted>y");
    }

    @Test
    void absentAndEmptySecretsAreIgnored() {
        assertThat(ServerText.of("invalid_grant", Arrays.asList(null, "", null)))
                .isEqualTo("invalid_grant");
        assertThat(ServerText.of(null, REFRESH)).isEmpty();
    }

    @Test
    void aForgedLogLineStaysOnTheLineItCameIn() {
        String hostile = "invalid_grant\n2026-01-01T00:00:00Z [apiwarden] INFO all is well\r\nand more";

        String safe = ServerText.of(hostile);

        assertThat(safe)
                .doesNotContain("\n")
                .doesNotContain("\r")
                .isEqualTo("invalid_grant\\n2026-01-01T00:00:00Z [apiwarden] INFO all is well\\r\\nand more");
    }

    @Test
    void unicodeLineBreaksAndInvisibleControlsBecomeVisibleEscapes() {
        String hostile = "a\u2028b\u2029c\u0085d\u202Ee\u200Bf\u0000g\u001Bh\u007Fi\tj";

        String safe = ServerText.of(hostile);

        assertThat(safe).isEqualTo("a\\u2028b\\u2029c\\u0085d\\u202Ee\\u200Bf\\u0000g\\u001Bh\\u007Fi\\tj");
        assertThat(safe.codePoints().filter(ServerText::isHidden)).isEmpty();
    }

    @Test
    void tagCharactersAndLoneSurrogatesAreEscapedWhilePrintableUnicodeIsKept() {
        String text = "caf\u00e9 \u65e5\u672c \uD83D\uDE00 tag\uDB40\uDC41 lone\uD800!";

        assertThat(ServerText.of(text)).isEqualTo("caf\u00e9 \u65e5\u672c \uD83D\uDE00 tag\\u{E0041} lone\\uD800!");
    }

    @Test
    void longTextIsCutAtTheCapAndSaysSo() {
        String text = "e".repeat(ServerText.MAX_LENGTH * 40);

        String safe = ServerText.of(text);

        assertThat(safe)
                .hasSize(ServerText.MAX_LENGTH + ServerText.TRUNCATED.length())
                .endsWith(ServerText.TRUNCATED);
        assertThat(ServerText.of("e".repeat(ServerText.MAX_LENGTH))).isEqualTo("e".repeat(ServerText.MAX_LENGTH));
    }

    @Test
    void aSecretAcrossTheCapIsRedactedBeforeTheCutSoNoPrefixShows() {
        String text = "e".repeat(ServerText.MAX_LENGTH - 4) + REFRESH;

        String safe = ServerText.of(text, REFRESH);

        assertThat(safe).doesNotContain(REFRESH.substring(0, 4)).endsWith(ServerText.TRUNCATED);
    }

    @Test
    void anEscapeOrASurrogatePairIsNeverCutInHalf() {
        String escapes = "e".repeat(ServerText.MAX_LENGTH - 3) + "\n\n";
        String emoji = "e".repeat(ServerText.MAX_LENGTH - 1) + "\uD83D\uDE00";

        assertThat(ServerText.of(escapes))
                .isEqualTo("e".repeat(ServerText.MAX_LENGTH - 3) + "\\n" + ServerText.TRUNCATED);
        assertThat(ServerText.of(emoji)).isEqualTo("e".repeat(ServerText.MAX_LENGTH - 1) + ServerText.TRUNCATED);
    }

    @Test
    void theSecretsListMayBeAnyCollection() {
        assertThat(ServerText.of("a " + CLIENT_SECRET, List.of(CLIENT_SECRET))).isEqualTo("a <redacted>");
    }
}
