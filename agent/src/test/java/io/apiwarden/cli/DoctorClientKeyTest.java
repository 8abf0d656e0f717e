package io.apiwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import io.apiwarden.core.config.WardenConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code doctor} with private_key_jwt: the key it read, the token request, and which step failed. */
class DoctorClientKeyTest {
    private static final HeldCertificate REGISTERED =
            new HeldCertificate.Builder().ecdsa256().build();

    @TempDir
    Path dir;

    private final MockWebServer server = new MockWebServer();
    private final Map<String, String> props = new HashMap<>();

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getUrl().encodedPath().equals("/auth/token")) {
                    return verified(request)
                            ? json(200, "{\"access_token\":\"doctor-access-77c1\",\"expires_in\":600}")
                            : json(401, "{\"error\":\"invalid_client\"}");
                }
                return new MockResponse.Builder().code(200).body("user").build();
            }
        });
        server.start(0);
        props.put("apiwarden.base-url", server.url("/api/v1").toString());
        props.put("apiwarden.auth-url", server.url("/auth").toString());
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc");
        props.put("apiwarden.client-auth", "private_key_jwt");
        props.put("apiwarden.tracing.enabled", "false");
        props.put("apiwarden.metrics.enabled", "false");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** The token service's check: the assertion is signed with the registered key. */
    private static boolean verified(RecordedRequest request) {
        try {
            for (String pair : request.getBody().utf8().split("&")) {
                if (pair.startsWith("client_assertion=")) {
                    String jwt = URLDecoder.decode(pair.substring(17), StandardCharsets.UTF_8);
                    return SignedJWT.parse(jwt).verify(new ECDSAVerifier((ECPublicKey)
                            REGISTERED.keyPair().getPublic()));
                }
            }
        } catch (Exception e) {
            return false;
        }
        return false;
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    private String[] doctor(HeldCertificate key) throws Exception {
        props.put(
                "apiwarden.client-assertion.key-file",
                Files.writeString(dir.resolve("key.pem"), key.privateKeyPkcs8Pem())
                        .toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = new Doctor(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        props::get,
                        Map.of())
                .run();
        return new String[] {Integer.toString(code), out.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theRegisteredKeyIsReportedReadAndAcceptedAndATokenObtained() throws Exception {
        String[] r = doctor(REGISTERED);

        assertThat(r[0]).as(r[1]).isEqualTo("0");
        assertThat(r[1])
                .contains(
                        "OK   client assertion key " + dir.resolve("key.pem") + ": EC, signs ES256, no kid",
                        "OK   token request (client_credentials, client svc, private_key_jwt client authentication)")
                .doesNotContain("PRIVATE KEY");
    }

    @Test
    void aClientCertificateIsShownWithItsSubjectAndAnExpiredOneFails() throws Exception {
        HeldCertificate certificate = new HeldCertificate.Builder()
                .commonName("svc")
                .ecdsa256()
                .validityInterval(0, 86_400_000L)
                .build();
        props.put("apiwarden.client-auth", "tls_client_auth");
        props.put(
                "apiwarden.client-tls.certificate-file",
                Files.writeString(dir.resolve("tls.crt"), certificate.certificatePem())
                        .toString());
        props.put(
                "apiwarden.client-tls.key-file",
                Files.writeString(dir.resolve("tls.key"), certificate.privateKeyPkcs8Pem())
                        .toString());
        WardenConfig config = WardenConfig.from(props::get, Map.of());

        assertThat(ClientKeyCheck.keyLine(config, Instant.EPOCH.plusSeconds(60)))
                .startsWith("OK   client certificate CN=svc (issued by CN=svc, valid until 1970-01-02T00:00:00Z)");
        assertThat(ClientKeyCheck.keyLine(config, Instant.EPOCH.plus(Duration.ofDays(2))))
                .startsWith("FAIL client certificate CN=svc")
                .endsWith("not valid now; the token service will refuse it");
        assertThat(ClientKeyCheck.afterRefusal(config, "the token endpoint tls did not answer (SSLHandshakeException)"))
                .startsWith("step failed: the TLS connection to the token service");
    }

    @Test
    void aKeyTheTokenServiceDoesNotHoldIsTheStepThatFailed() throws Exception {
        String[] r = doctor(new HeldCertificate.Builder().ecdsa256().build());

        assertThat(r[0]).isEqualTo("1");
        assertThat(r[1])
                .contains("OK   client assertion key", "FAIL token request", "invalid_client")
                .contains("step failed: the token service did not accept the signed assertion of client svc");
    }
}
