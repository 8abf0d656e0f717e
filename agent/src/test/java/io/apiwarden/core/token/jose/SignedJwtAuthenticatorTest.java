package io.apiwarden.core.token.jose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import io.apiwarden.core.secret.JwsAlgorithms;
import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.core.token.TokenGrant;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** private_key_jwt on the wire: each request's assertion, its claims and signature, on an injected clock. */
class SignedJwtAuthenticatorTest {
    private static final String CLIENT_ID = "svc-orders";
    /** One RSA key for the class: making one costs a good part of a second. */
    private static final HeldCertificate RSA =
            new HeldCertificate.Builder().rsa2048().build();

    @TempDir
    Path folder;

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

    private HttpTokenEndpoint endpoint(HeldCertificate key, String algorithm, String keyId) throws Exception {
        Path file = Files.writeString(folder.resolve("key.pem"), key.privateKeyPkcs8Pem());
        ReloadableSecret<PrivateKey> secret = ReloadableSecret.open(
                "apiwarden.client-assertion.key-file", file, PemKeys::privateKey, clock, Duration.ofSeconds(5));
        SignedJwtAuthenticator authenticator = new SignedJwtAuthenticator(
                CLIENT_ID, secret, k -> algorithm == null ? JwsAlgorithms.defaultFor(k) : algorithm, keyId, clock);
        return HttpTokenEndpoint.of(
                server.url("/realms/shop/token").uri(),
                Grant.clientCredentials(null),
                authenticator,
                Duration.ofSeconds(5),
                () -> client,
                scheduler,
                clock);
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    private static Map<String, String> form(RecordedRequest r) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String pair : r.getBody().utf8().split("&")) {
            int eq = pair.indexOf('=');
            fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return fields;
    }

    private static TokenGrant request(HttpTokenEndpoint endpoint) {
        return endpoint.refresh("<client credentials>").join();
    }

    @Test
    void eachRequestCarriesAnAssertionSignedWithTheKeyWithTheClaimsOfRfc7523() throws Exception {
        HeldCertificate rsa = RSA;
        server.enqueue(json(200, "{\"access_token\":\"a-1\",\"token_type\":\"Bearer\",\"expires_in\":300}"));

        assertThat(request(endpoint(rsa, null, "key-2026")).accessToken()).isEqualTo("a-1");

        RecordedRequest r = server.takeRequest();
        Map<String, String> form = form(r);
        assertThat(r.getHeaders().get("Authorization")).isNull();
        assertThat(form)
                .containsEntry("grant_type", "client_credentials")
                .containsEntry("client_id", CLIENT_ID)
                .containsEntry("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
        SignedJWT jwt = SignedJWT.parse(form.get("client_assertion"));
        assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) rsa.keyPair().getPublic())))
                .isTrue();
        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("RS256");
        assertThat(jwt.getHeader().getKeyID()).isEqualTo("key-2026");
        var claims = jwt.getJWTClaimsSet();
        assertThat(claims.getIssuer()).isEqualTo(CLIENT_ID);
        assertThat(claims.getSubject()).isEqualTo(CLIENT_ID);
        assertThat(claims.getAudience())
                .containsExactly(server.url("/realms/shop/token").toString());
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(clock.instant());
        assertThat(Duration.between(clock.instant(), claims.getExpirationTime().toInstant()))
                .isPositive()
                .isLessThanOrEqualTo(Duration.ofSeconds(60));
        assertThat(claims.getJWTID()).isNotBlank();
    }

    @Test
    void everyAttemptRetriesIncludedGetsAFreshAssertionWithItsOwnJtiAndTime() throws Exception {
        HeldCertificate ec = new HeldCertificate.Builder().ecdsa256().build();
        HttpTokenEndpoint endpoint = endpoint(ec, null, null);
        server.enqueue(json(503, "{}"));
        server.enqueue(json(502, "{}"));
        server.enqueue(json(200, "{\"access_token\":\"a-1\",\"token_type\":\"Bearer\"}"));
        server.enqueue(json(200, "{\"access_token\":\"a-2\",\"token_type\":\"Bearer\"}"));

        request(endpoint);
        clock.advance(Duration.ofSeconds(30));
        request(endpoint);

        List<SignedJWT> sent = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sent.add(SignedJWT.parse(form(server.takeRequest()).get("client_assertion")));
        }
        JWSVerifier verifier = new ECDSAVerifier((ECPublicKey) ec.keyPair().getPublic());
        Set<String> jtis = new HashSet<>();
        for (SignedJWT jwt : sent) {
            assertThat(jwt.verify(verifier)).isTrue();
            assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
            assertThat(jwt.getHeader().getKeyID()).isNull();
            jtis.add(jwt.getJWTClaimsSet().getJWTID());
        }
        assertThat(jtis).hasSize(4);
        // The retries waited (1 s, then 2 s) on the fake timer: each assertion says when it was made.
        assertThat(sent.get(2).getJWTClaimsSet().getIssueTime())
                .isAfter(sent.get(0).getJWTClaimsSet().getIssueTime());
        assertThat(sent.get(3).getJWTClaimsSet().getIssueTime().toInstant()).isEqualTo(clock.instant());
    }

    @Test
    void aConfiguredAlgorithmIsUsed() throws Exception {
        HeldCertificate rsa = RSA;
        server.enqueue(json(200, "{\"access_token\":\"a-1\",\"token_type\":\"Bearer\"}"));

        request(endpoint(rsa, "PS384", null));

        SignedJWT jwt = SignedJWT.parse(form(server.takeRequest()).get("client_assertion"));
        assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("PS384");
        assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) rsa.keyPair().getPublic())))
                .isTrue();
    }

    @Test
    void aKeyThatCannotSignFailsTheRefreshWithoutASecretInTheMessage() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder()
                        .encodeToString(generator.generateKeyPair().getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        Path file = Files.writeString(folder.resolve("short.pem"), pem);
        HttpTokenEndpoint endpoint = HttpTokenEndpoint.of(
                server.url("/token").uri(),
                Grant.clientCredentials(null),
                new SignedJwtAuthenticator(
                        CLIENT_ID,
                        ReloadableSecret.open("k", file, PemKeys::privateKey, clock, Duration.ofSeconds(5)),
                        k -> "RS256",
                        null,
                        clock),
                Duration.ofSeconds(5),
                () -> client,
                scheduler,
                clock);

        Throwable t = catchThrowable(() -> request(endpoint));

        assertThat(t.getCause())
                .isInstanceOf(TokenRefreshException.class)
                .hasMessageContaining("the token request could not be made")
                .hasMessageNotContaining("PRIVATE KEY");
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void neitherTheEndpointNorTheAuthenticatorShowsTheKey() throws Exception {
        HeldCertificate rsa = RSA;
        HttpTokenEndpoint endpoint = endpoint(rsa, null, null);

        assertThat(endpoint.toString()).contains("private_key_jwt").doesNotContain("PRIVATE KEY");
    }
}
