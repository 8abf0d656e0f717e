package io.apiwarden.core.token.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.ClientAuthenticator;
import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.function.Supplier;
import javax.net.ssl.TrustManager;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mutual TLS at the token endpoint: a local HTTPS token service that wants a client certificate. */
class TlsClientAuthenticatorTest {
    private static final String CLIENT_ID = "svc-orders";
    private static final Duration INTERVAL = Duration.ofSeconds(5);

    private static final HeldCertificate ROOT = new HeldCertificate.Builder()
            .certificateAuthority(0)
            .commonName("test root")
            .ecdsa256()
            .build();
    private static final HeldCertificate SERVER = new HeldCertificate.Builder()
            .addSubjectAlternativeName("localhost")
            .signedBy(ROOT)
            .ecdsa256()
            .build();

    @TempDir
    Path folder;

    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final TrustManager[] trustTheServer = {
        new HandshakeCertificates.Builder()
                .addTrustedCertificate(ROOT.certificate())
                .build()
                .trustManager()
    };

    @BeforeEach
    void start() throws Exception {
        server.useHttps(new HandshakeCertificates.Builder()
                .heldCertificate(SERVER, ROOT.certificate())
                .addTrustedCertificate(ROOT.certificate())
                .build()
                .sslSocketFactory());
        server.requireClientAuth();
        server.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private static HeldCertificate clientCertificate(String name) {
        return new HeldCertificate.Builder()
                .commonName(name)
                .signedBy(ROOT)
                .ecdsa256()
                .build();
    }

    private HttpTokenEndpoint endpoint(ClientAuthenticator authenticator, Supplier<HttpClient> client) {
        return HttpTokenEndpoint.of(
                server.url("/token").uri(),
                Grant.clientCredentials(null),
                authenticator,
                Duration.ofSeconds(5),
                client,
                scheduler,
                clock);
    }

    private <T> ReloadableSecret<T> follow(Path file, java.util.function.Function<byte[], T> parse) throws Exception {
        return ReloadableSecret.open(file.getFileName().toString(), file, parse, clock, INTERVAL);
    }

    private TlsClientAuthenticator fromPem(HeldCertificate client, Path cert, Path key) throws Exception {
        Files.writeString(cert, client.certificatePem() + ROOT.certificatePem());
        Files.writeString(key, client.privateKeyPkcs8Pem());
        return new TlsClientAuthenticator(
                CLIENT_ID,
                "tls_client_auth",
                ClientCertificate.pem(follow(cert, PemKeys::certificates), follow(key, PemKeys::privateKey)),
                trustTheServer);
    }

    private static MockResponse token(String value) {
        return new MockResponse.Builder()
                .addHeader("Content-Type", "application/json")
                .body("{\"access_token\":\"" + value + "\",\"token_type\":\"Bearer\"}")
                .build();
    }

    private static String presented(RecordedRequest r) {
        return ((X509Certificate) r.getHandshake().peerCertificates().get(0))
                .getSubjectX500Principal()
                .getName();
    }

    @Test
    void aTokenIsObtainedWithTheCertificateFromPemFilesAndTheFormCarriesTheClientIdAlone() throws Exception {
        TlsClientAuthenticator auth =
                fromPem(clientCertificate("svc-orders"), folder.resolve("tls.crt"), folder.resolve("tls.key"));
        HttpClient client =
                HttpClient.newBuilder().sslContext(auth.tlsContext()).build();
        server.enqueue(token("a-1"));

        assertThat(endpoint(auth, () -> client).refresh("x").join().accessToken())
                .isEqualTo("a-1");

        RecordedRequest r = server.takeRequest();
        assertThat(presented(r)).isEqualTo("CN=svc-orders");
        assertThat(r.getBody().utf8()).isEqualTo("grant_type=client_credentials&client_id=svc-orders");
        assertThat(r.getHeaders().get("Authorization")).isNull();
    }

    @Test
    void withoutTheCertificateTheTokenServiceRefusesTheConnection() throws Exception {
        HttpClient noCertificate = HttpClient.newBuilder()
                .sslContext(new HandshakeCertificates.Builder()
                        .addTrustedCertificate(ROOT.certificate())
                        .build()
                        .sslContext())
                .build();

        Throwable t = catchThrowable(() -> endpoint(ClientAuthenticator.NONE, () -> noCertificate)
                .refresh("x")
                .join());

        assertThat(t).hasCauseInstanceOf(TokenRefreshException.class);
        assertThat(t.getCause()).hasMessageContaining("did not answer");
    }

    @Test
    void aPkcs12KeyStoreWithItsPasswordFileWorksForASelfSignedCertificate() throws Exception {
        HeldCertificate selfSigned =
                new HeldCertificate.Builder().commonName("self").ecdsa256().build();
        server.close();
        MockWebServer trusting = new MockWebServer();
        trusting.useHttps(new HandshakeCertificates.Builder()
                .heldCertificate(SERVER, ROOT.certificate())
                .addTrustedCertificate(selfSigned.certificate())
                .build()
                .sslSocketFactory());
        trusting.requireClientAuth();
        trusting.start(0);
        try {
            char[] password = "p4ss".toCharArray();
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry(
                    "me", selfSigned.keyPair().getPrivate(), password, new X509Certificate[] {selfSigned.certificate()
                    });
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            ks.store(bytes, password);
            Path store = Files.write(folder.resolve("client.p12"), bytes.toByteArray());
            Path passwordFile = Files.writeString(folder.resolve("password"), "p4ss\n");
            TlsClientAuthenticator auth = new TlsClientAuthenticator(
                    CLIENT_ID,
                    "self_signed_tls_client_auth",
                    ClientCertificate.pkcs12(
                            follow(store, b -> b),
                            follow(passwordFile, b -> new String(b, StandardCharsets.UTF_8).trim())),
                    trustTheServer);
            HttpClient client =
                    HttpClient.newBuilder().sslContext(auth.tlsContext()).build();
            trusting.enqueue(token("a-1"));

            HttpTokenEndpoint endpoint = HttpTokenEndpoint.of(
                    trusting.url("/token").uri(),
                    Grant.clientCredentials(null),
                    auth,
                    Duration.ofSeconds(5),
                    () -> client,
                    scheduler,
                    clock);

            assertThat(endpoint.refresh("x").join().accessToken()).isEqualTo("a-1");
            assertThat(presented(trusting.takeRequest())).isEqualTo("CN=self");
            assertThat(auth.describe()).isEqualTo("self_signed_tls_client_auth");
        } finally {
            trusting.close();
        }
    }

    @Test
    void aRotatedCertificateIsPresentedFromTheNextConnectionOn() throws Exception {
        Path cert = folder.resolve("tls.crt");
        Path key = folder.resolve("tls.key");
        TlsClientAuthenticator auth = fromPem(clientCertificate("before"), cert, key);
        server.enqueue(token("a-1"));
        server.enqueue(token("a-2"));
        HttpClient first = HttpClient.newBuilder().sslContext(auth.tlsContext()).build();
        endpoint(auth, () -> first).refresh("x").join();

        HeldCertificate after = clientCertificate("after");
        Files.writeString(key, after.privateKeyPkcs8Pem());
        Files.writeString(cert, after.certificatePem());
        assertThat(auth.reloadNow()).isTrue();
        HttpClient second =
                HttpClient.newBuilder().sslContext(auth.tlsContext()).build();
        endpoint(auth, () -> second).refresh("x").join();

        assertThat(presented(server.takeRequest())).isEqualTo("CN=before");
        assertThat(presented(server.takeRequest())).isEqualTo("CN=after");
    }
}
