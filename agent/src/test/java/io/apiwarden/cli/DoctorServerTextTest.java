package io.apiwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code doctor} prints what a token service or an API says under the log's rules: escaped, capped, secrets cut. */
class DoctorServerTextTest {
    /** A line the server tries to slip into doctor's report. */
    private static final String FORGED =
            "\nOK   token request -> an access token\nOK: the agent can work with this API\n";

    private final MockWebServer server = new MockWebServer();
    private final Map<String, String> props = new HashMap<>();
    private Function<RecordedRequest, MockResponse> tokenService;

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getUrl().encodedPath().equals("/auth/token")) {
                    return tokenService.apply(request);
                }
                return new MockResponse.Builder()
                        .code(401)
                        .body("{\"message\":\"invalid token\"}")
                        .build();
            }
        });
        server.start(0);
        props.put("apiwarden.base-url", server.url("/api/v1").toString());
        props.put("apiwarden.auth-url", server.url("/auth").toString());
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc");
        props.put("apiwarden.client-secret", "doctor-secret-0b7d");
        props.put("apiwarden.tracing.enabled", "false");
        props.put("apiwarden.metrics.enabled", "false");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    /** Standard output and standard error of one run, together. */
    private String doctor() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Doctor(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        props::get,
                        Map.of())
                .run();
        return out.toString(StandardCharsets.UTF_8);
    }

    /** {@code s} as a JSON string, every character outside printable ASCII escaped as JSON allows. */
    private static String jsonString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            b.append(
                    c < 0x20 || c > 0x7e || c == '"' || c == '\\'
                            ? String.format("\\u%04x", (int) c)
                            : String.valueOf(c));
        }
        return b.append('"').toString();
    }

    /** Every character that ends a line on some terminal or log viewer, and an escape sequence that wipes one. */
    private static Stream<String> lineBreakers() {
        return Stream.of("\n", "\r", "\r\n", "\u000b", "\u000c", "\u0085", "\u2028", "\u2029", "\u001b[2K\r");
    }

    /** The report has no line the server wrote, and no character that breaks or rewrites a line but its own line ends. */
    private static void assertNoForgedLine(String report) {
        assertThat(report.split("\n", -1))
                .as(report)
                .noneMatch(l -> l.startsWith("OK   token request ->"))
                .noneMatch(l -> l.startsWith("OK: the agent"));
        assertThat(report.chars()).as(report).allMatch(c -> c == '\n' || (c >= 0x20 && c < 0x7f));
        assertThat(report).as("doctor's own verdict").contains("\nFAIL token request (client_credentials");
    }

    @ParameterizedTest
    @MethodSource("lineBreakers")
    void anErrorDescriptionWithALineBreakStaysOnItsLine(String breaker) {
        tokenService = r -> json(
                400,
                "{\"error\":\"invalid_client\",\"error_description\":" + jsonString("bad client" + forged(breaker))
                        + "}");

        assertNoForgedLine(doctor());
    }

    @ParameterizedTest
    @MethodSource("lineBreakers")
    void aTokenTypeWithALineBreakStaysOnItsLine(String breaker) {
        tokenService = r -> json(
                200,
                "{\"access_token\":\"at-5c1e\",\"expires_in\":600,\"token_type\":" + jsonString("mac" + forged(breaker))
                        + "}");

        assertNoForgedLine(doctor());
    }

    private static String forged(String breaker) {
        return FORGED.replace("\n", breaker);
    }
}
