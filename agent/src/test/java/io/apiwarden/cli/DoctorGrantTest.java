package io.apiwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code doctor} checks the configured grant with a token request before it calls the API. */
class DoctorGrantTest {
    private static final String SECRET = "doctor-secret-4e1f9a";
    private static final String TOKEN = "doctor-access-77c1";

    private final MockWebServer server = new MockWebServer();
    private final AtomicInteger tokenRequests = new AtomicInteger();
    private final Map<String, String> props = new HashMap<>();

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getUrl().encodedPath().equals("/auth/token")) {
                    tokenRequests.incrementAndGet();
                    String expected = "Basic "
                            + Base64.getEncoder().encodeToString(("svc:" + SECRET).getBytes(StandardCharsets.UTF_8));
                    if (!request.getBody().utf8().equals("grant_type=client_credentials")
                            || !expected.equals(request.getHeaders().get("Authorization"))) {
                        return new MockResponse.Builder()
                                .code(401)
                                .addHeader("Content-Type", "application/json")
                                .body("{\"error\":\"invalid_client\"}")
                                .build();
                    }
                    return new MockResponse.Builder()
                            .code(200)
                            .addHeader("Content-Type", "application/json")
                            .body("{\"access_token\":\"" + TOKEN + "\",\"expires_in\":600}")
                            .build();
                }
                boolean bearer = ("Bearer " + TOKEN).equals(request.getHeaders().get("Authorization"));
                return new MockResponse.Builder()
                        .code(bearer ? 200 : 401)
                        .body(bearer ? "user" : "{\"message\":\"OAuth invalid token\"}")
                        .build();
            }
        });
        server.start(0);
        props.put("apiwarden.base-url", server.url("/api/v1").toString());
        props.put("apiwarden.auth-url", server.url("/auth").toString());
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc");
        props.put("apiwarden.tracing.enabled", "false");
        props.put("apiwarden.metrics.enabled", "false");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String[] doctor() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Doctor(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        props::get,
                        Map.of())
                .run();
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void workingClientCredentialsAreReportedWithTheGrantAndTheCallsSucceed() {
        props.put("apiwarden.client-secret", SECRET);

        String[] r = doctor();

        assertThat(r[0]).as(r[1]).isEqualTo("0");
        assertThat(r[1])
                .contains(
                        "OK   token request (client_credentials, client svc, basic client authentication)",
                        "-> an access token valid until",
                        "the token works")
                .doesNotContain(SECRET, TOKEN);
        assertThat(tokenRequests).hasValue(1);
    }

    @Test
    void aWrongSecretFailsTheGrantCheckWithWhatToCheck() {
        props.put("apiwarden.client-secret", "not-the-" + SECRET);

        String[] r = doctor();

        assertThat(r[0]).isEqualTo("1");
        assertThat(r[1])
                .contains("FAIL token request (client_credentials", "invalid_client", "apiwarden.client-secret")
                .doesNotContain(SECRET);
        assertThat(tokenRequests).as("refused for good: asked once").hasValue(1);
    }

    @Test
    void withSeveralApisEachIsCheckedUnderItsNameWithItsOwnToken() {
        for (String unnamed : new String[] {"base-url", "auth-url", "grant", "client-id"}) {
            props.remove("apiwarden." + unnamed);
        }
        for (String api : new String[] {"payments", "crm"}) {
            props.put(
                    "apiwarden.api." + api + ".base-url",
                    server.url("/" + api + "/v1").toString());
            props.put("apiwarden.api." + api + ".auth-url", server.url("/auth").toString());
            props.put("apiwarden.api." + api + ".grant", "client_credentials");
            props.put("apiwarden.api." + api + ".client-id", "svc");
            props.put("apiwarden.api." + api + ".client-secret", SECRET);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new Doctor(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        props::get,
                        Map.of(),
                        props.keySet())
                .run();
        String report = out.toString(StandardCharsets.UTF_8);

        assertThat(code).as(report).isZero();
        assertThat(report)
                .containsSubsequence("== API crm", "the token works", "== API payments", "the token works")
                .contains("OK: the agent can work with these APIs")
                .doesNotContain(SECRET, TOKEN);
        assertThat(tokenRequests)
                .as("each API asked its token service for its own token")
                .hasValue(2);
    }
}
