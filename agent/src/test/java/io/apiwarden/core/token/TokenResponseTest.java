package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TokenResponseTest {
    private static TokenResponse parse(String json) throws Exception {
        return TokenResponse.parse(json.getBytes(StandardCharsets.UTF_8));
    }

    private static Duration expiresIn(String value) throws Exception {
        TokenResponse r = parse("{\"access_token\":\"a-1\",\"expires_in\":" + value + "}");
        assertThat(r.accessToken).as("the rest of the response is still read").isEqualTo("a-1");
        return r.expiresIn;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "99999999999999999999",
                "1e308",
                "1E400",
                "31536001",
                "\"99999999999999999999\"",
                "\"1e308\"",
                "123456789012345678901234567890.5"
            })
    void aLifetimeBeyondAYearIsAYear(String value) throws Exception {
        assertThat(expiresIn(value)).isEqualTo(TokenManager.MAX_LIFETIME);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0",
                "-1",
                "-99999999999999999999",
                "-1e308",
                "0.5",
                "\"NaN\"",
                "\"Infinity\"",
                "\"-5\"",
                "\"soon\"",
                "\"\"",
                "\"0x10\"",
                "true",
                "null",
                "{\"s\":3600}",
                "[3600]"
            })
    void aLifetimeThatIsNotPositiveOrNotANumberIsUnknown(String value) throws Exception {
        assertThat(expiresIn(value)).isNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{'access_token':'a-1'}",
                "{access_token:\"a-1\"}",
                "/* a comment */{\"access_token\":\"a-1\"}",
                "{\"access_token\":\"a-1\",}",
                "[\"access_token\",\"a-1\"]",
                "\"a-1\"",
                "",
                // Refused by a strict reader only: Gson's default would take them.
                "{\"access_token\":\"a-1\",\"token_type\":NULL}",
                "{\"access_token\":\"a\\'1\"}",
                "{\"access_token\":\"a\u00011\"}"
            })
    void aBodyThatIsNoStrictJsonObjectIsRefused(String body) {
        assertThatThrownBy(() -> parse(body)).as(body).isInstanceOf(IOException.class);
    }

    @Test
    void aBodyThatIsNotUtf8IsRefusedAndOneThatIsIsRead() throws Exception {
        byte[] latin1 = "{\"access_token\":\"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> TokenResponse.parse(latin1)).isInstanceOf(IOException.class);

        assertThat(parse("{\"access_token\":\"caf\u00e9\"}").accessToken).isEqualTo("caf\u00e9");
    }

    @Test
    void ordinaryLifetimesAreReadInWholeSeconds() throws Exception {
        assertThat(expiresIn("3600")).isEqualTo(Duration.ofHours(1));
        assertThat(expiresIn("\" 3600 \"")).isEqualTo(Duration.ofHours(1));
        assertThat(expiresIn("59.9")).isEqualTo(Duration.ofSeconds(59));
        assertThat(expiresIn("3.6e3")).isEqualTo(Duration.ofHours(1));
        assertThat(expiresIn(String.valueOf(TokenManager.MAX_LIFETIME.getSeconds() - 1)))
                .isEqualTo(TokenManager.MAX_LIFETIME.minusSeconds(1));
    }
}
