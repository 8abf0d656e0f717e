package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.core.log.ServerText;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Token services that echo secrets, forge log lines or hand out tokens no header can carry. */
class HostileTokenResponseTest {
    private static final String REFRESH = "rt_Zm9yZ2VkLWxpbmVzLWFyZS1ub3Qtb3Vycw";
    private static final String ISSUED = "at_bmV2ZXItcHJpbnQtbWUtYW55d2hlcmU";
    private static final String ROTATED = "rt_cm90YXRlZC1yZWZyZXNoLXRva2Vu";
    private static final String CLIENT_SECRET = "cs+Secret/9=";
    private static final String FORGED = "2026-01-01T00:00:00Z [apiwarden] INFO token refresh succeeded";

    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        server.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TokenRefreshException refusal(String clientId, String secret, int status, String json) {
        server.enqueue(new MockResponse.Builder()
                .code(status)
                .addHeader("Content-Type", "application/json")
                .body(json)
                .build());
        HttpTokenEndpoint endpoint = new HttpTokenEndpoint(
                server.url("/token").uri(), clientId, secret, Duration.ofSeconds(5), () -> client, scheduler, clock);
        Throwable t = catchThrowable(() -> endpoint.refresh(REFRESH).join());
        assertThat(t).hasCauseInstanceOf(TokenRefreshException.class);
        return (TokenRefreshException) t.getCause();
    }

    private static void assertOneSafeLine(String message) {
        assertThat(message)
                .doesNotContain("\n")
                .doesNotContain("\r")
                .doesNotContain("\u2028")
                .doesNotContain("\u2029")
                .doesNotContain("\u0085");
        assertThat(message.codePoints().filter(cp -> Character.getType(cp) == Character.CONTROL))
                .isEmpty();
    }

    @Test
    void anErrorThatEchoesTheRefreshTokenAndForgesALogLineStaysOneLineWithoutTheToken() {
        String error = "invalid_request\n" + FORGED + " for " + REFRESH;
        String description = "refresh_token=" + REFRESH + " is not valid\r\n" + FORGED;

        TokenRefreshException e = refusal(
                null, null, 400, "{\"error\":" + quote(error) + ",\"error_description\":" + quote(description) + "}");

        assertThat(e.getMessage())
                .doesNotContain(REFRESH)
                .contains(ServerText.REDACTED)
                .contains("HTTP 400", "invalid_request\\n2026-01-01T00:00:00Z [apiwarden] INFO");
        assertOneSafeLine(e.getMessage());
    }

    @Test
    void aPermanentRefusalStillNamesItsCodeWhenTheDescriptionIsHostile() {
        TokenRefreshException e = refusal(
                null,
                null,
                400,
                "{\"error\":\"invalid_grant\",\"error_description\":"
                        + quote("token " + REFRESH + " revoked\u2028" + FORGED) + "}");

        assertThat(e.permanent()).isTrue();
        assertThat(e.getMessage())
                .contains("invalid_grant", "revoked", "new refresh token")
                .doesNotContain(REFRESH);
        assertOneSafeLine(e.getMessage());
    }

    @Test
    void aTokenTypeThatEchoesTheIssuedTokensIsShownWithoutThem() {
        TokenRefreshException e = refusal(
                null,
                null,
                200,
                "{\"access_token\":\"" + ISSUED + "\",\"refresh_token\":\"" + ROTATED + "\",\"token_type\":"
                        + quote("mac " + ISSUED + " " + ROTATED + " " + REFRESH + "\n" + FORGED) + "}");

        assertThat(e.getMessage())
                .contains("not Bearer", "mac <redacted> <redacted> <redacted>\\n")
                .doesNotContain(ISSUED)
                .doesNotContain(ROTATED)
                .doesNotContain(REFRESH);
        assertOneSafeLine(e.getMessage());
    }

    @Test
    void theClientSecretIsRedactedInEveryFormItWasSent() {
        String basic = Base64.getEncoder()
                .encodeToString(("my-client:" + URLEncoder.encode(CLIENT_SECRET, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
        String form = URLEncoder.encode(CLIENT_SECRET, StandardCharsets.UTF_8);

        TokenRefreshException e = refusal(
                "my-client",
                CLIENT_SECRET,
                401,
                "{\"error\":\"invalid_client\",\"error_description\":"
                        + quote("secret " + CLIENT_SECRET + " / " + form + " in Authorization: Basic " + basic) + "}");

        assertThat(e.getMessage())
                .contains("invalid_client")
                .doesNotContain(CLIENT_SECRET)
                .doesNotContain(form)
                .doesNotContain(basic);
    }

    @Test
    void aHugeDescriptionAddsOnlyAShortPieceToTheMessage() {
        TokenRefreshException e = refusal(
                null,
                null,
                400,
                "{\"error\":\"invalid_request\",\"error_description\":\"" + "x".repeat(60_000) + "\"}");

        assertThat(e.getMessage()).contains(ServerText.TRUNCATED).hasSizeLessThan(ServerText.MAX_LENGTH + 300);
    }

    @Test
    void anAccessTokenLongerThanAHeaderCarriesIsNeverUsed() {
        String huge = "at_" + "A".repeat(TokenText.MAX_ACCESS_TOKEN_LENGTH);

        TokenRefreshException e =
                refusal(null, null, 200, "{\"access_token\":\"" + huge + "\",\"token_type\":\"Bearer\"}");

        assertThat(e.permanent()).isFalse();
        assertThat(e.getMessage())
                .contains("access_token", "16 KiB", "not used")
                .hasSizeLessThan(400);
    }

    @Test
    void receivedTokensOutsideTheBearerGrammarAreRefusedWithTheirFlaw() {
        assertThat(refusal(null, null, 200, "{\"access_token\":\"at-\\\"quoted\\\"\"}")
                        .getMessage())
                .contains("access_token contains quotes")
                .doesNotContain("quoted");
        assertThat(refusal(null, null, 200, "{\"access_token\":\"at-ok\",\"refresh_token\":\"rt,x\"}")
                        .getMessage())
                .contains("refresh_token contains punctuation")
                .doesNotContain("rt,x");
    }

    /** A JSON string literal; the JSON escapes keep raw control characters out of the test's own source. */
    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
