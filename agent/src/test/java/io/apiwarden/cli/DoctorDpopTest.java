package io.apiwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.testing.DpopServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code doctor} checks DPoP against the token endpoint and says which step failed. */
class DoctorDpopTest {
    private final DpopServer dpop = new DpopServer(Instant::now);
    private final MockWebServer server = new MockWebServer();
    private final Map<String, String> props = new HashMap<>();

    @TempDir
    Path dir;

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(dpop);
        server.start(0);
        props.put("apiwarden.base-url", server.url("/api/v1").toString());
        props.put("apiwarden.token-url", server.url(DpopServer.TOKEN_PATH).toString());
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc");
        props.put("apiwarden.client-secret", "doctor-dpop-secret");
        props.put("apiwarden.dpop.enabled", "true");
        props.put("apiwarden.tracing.enabled", "false");
        props.put("apiwarden.metrics.enabled", "false");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String doctor() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Doctor(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8),
                        props::get,
                        Map.of())
                .run();
        return "exit " + code + "\n" + out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aWorkingSetUpShowsTheKeyAndADpopTokenAndCallsTheApiWithProofs() {
        String out = doctor();

        assertThat(out)
                .startsWith("exit 0")
                .contains("OK   DPoP key: ES256, generated in memory")
                .contains("DPoP proof ES256) at " + server.url(DpopServer.TOKEN_PATH)
                        + " -> an access token of type DPoP")
                .contains("OK   GET " + server.url("/api/v1/user") + " -> 200");
        assertThat(dpop.refusals()).isEmpty();
        assertThat(out).doesNotContain("dpop-1");
    }

    @Test
    void aServerThatDoesNotBindTheTokenFailsTheTokenStepSayingSo() {
        dpop.issueTokenType("Bearer");

        String out = doctor();

        assertThat(out).startsWith("exit 1").contains("FAIL token request").contains("not DPoP");
    }

    @Test
    void anUnreadableKeyFailsTheConfigurationStepNamingTheFile() throws Exception {
        props.put(
                "apiwarden.dpop.key-file",
                Files.writeString(dir.resolve("k.pem"), "nope").toString());

        String out = doctor();

        assertThat(out).startsWith("exit 2").contains("FAIL configuration").contains("apiwarden.dpop.key-file");
        assertThat(dpop.tokenRequests()).isZero();
    }
}
