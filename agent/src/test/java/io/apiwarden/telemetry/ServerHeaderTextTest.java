package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.log.ServerText;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Response header values are the server's text: spans get them capped, on one line, with no secret. */
class ServerHeaderTextTest {
    @Test
    void ordinaryValuesAreKeptAsTheyAreWithoutACopy() {
        String value = "cloudflare";
        List<String> values = List.of("1.1 varnish", "HIT");

        assertThat(OtelTelemetry.fromServer(value)).isSameAs(value);
        assertThat(OtelTelemetry.fromServer(values)).isSameAs(values);
    }

    @Test
    void hostileValuesLoseTheirLineBreaksTheirLengthAndAnySecret() {
        KnownSecrets.remember("echoed-refresh-4242aa");

        String cleaned =
                OtelTelemetry.fromServer("nginx echoed-refresh-4242aa\r\nX-Injected: yes" + "z".repeat(10_000));

        assertThat(cleaned)
                .hasSizeLessThanOrEqualTo(ServerText.MAX_LENGTH + ServerText.TRUNCATED.length())
                .doesNotContain("\r", "\n", "echoed-refresh-4242aa")
                .startsWith("nginx <redacted>\\r\\nX-Injected: yes");
        assertThat(OtelTelemetry.fromServer(List.of("ok", "bad\u0000value"))).containsExactly("ok", "bad\\u0000value");
    }
}
