package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiwarden.core.token.ClientAuthentication;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The settings of private_key_jwt and tls_client_auth: each file read and checked at start-up, and named when wrong. */
class ClientKeySettingsTest {
    private static final HeldCertificate EC =
            new HeldCertificate.Builder().ecdsa256().build();

    @TempDir
    Path dir;

    private final Map<String, String> props = new HashMap<>();

    private WardenConfig read() throws ConfigException {
        return WardenConfig.from(props::get, Map.of());
    }

    private List<String> problems() {
        return catchThrowableOfType(ConfigException.class, this::read).problems();
    }

    private void clientCredentials(String method) {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.token-url", "https://sso.example.com/realms/shop/protocol/openid-connect/token");
        props.put("apiwarden.grant", "client_credentials");
        props.put("apiwarden.client-id", "svc-orders");
        props.put("apiwarden.client-auth", method);
    }

    private String file(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content).toString();
    }

    @Test
    void privateKeyJwtNeedsAKeyFileAndNoSecret() throws Exception {
        clientCredentials("private_key_jwt");
        props.put("apiwarden.client-assertion.key-file", file("key.pem", EC.privateKeyPkcs8Pem()));
        props.put("apiwarden.client-assertion.key-id", "k-1");

        WardenConfig c = read();

        assertThat(c.clientAuthentication()).isEqualTo(ClientAuthentication.PRIVATE_KEY_JWT);
        assertThat(c.clientAssertionKeyId()).contains("k-1");
        assertThat(c.clientAssertionAlgorithm()).isEmpty();
        assertThat(c.secretsCheckInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.toString()).contains("client-auth=private_key_jwt", "client-assertion.key-file=");

        props.remove("apiwarden.client-assertion.key-file");
        props.put("apiwarden.client-secret", "cs-8f2a61d0c4");
        assertThat(problems())
                .anyMatch(p -> p.startsWith(
                        "apiwarden.client-assertion.key-file (or APIWARDEN_CLIENT_ASSERTION_KEY_FILE) is required"))
                .anyMatch(p -> p.contains(
                        "apiwarden.client-secret is set, but apiwarden.client-auth=private_key_jwt sends no secret"));
    }

    @Test
    void aKeyThatIsNotPkcs8OrAnAlgorithmThatDoesNotFitIsNamedWithWhatToDo() throws Exception {
        clientCredentials("private_key_jwt");
        props.put(
                "apiwarden.client-assertion.key-file",
                file("rsa.pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n"));
        assertThat(problems()).anyMatch(p -> p.contains("not PKCS#8") && p.contains("openssl pkcs8 -topk8"));

        props.put("apiwarden.client-assertion.key-file", file("key.pem", EC.privateKeyPkcs8Pem()));
        props.put("apiwarden.client-assertion.algorithm", "RS256");
        assertThat(problems()).anyMatch(p -> p.contains("RS256 needs an RSA key, and the key is EC"));

        props.put("apiwarden.client-assertion.algorithm", "ES384");
        assertThat(problems()).anyMatch(p -> p.contains("ES384 does not fit the key's curve: use ES256"));

        props.put("apiwarden.client-assertion.algorithm", "HS256");
        assertThat(problems()).anyMatch(p -> p.contains("is 'HS256': set one of RS256"));

        java.security.KeyPairGenerator generator = java.security.KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        props.put(
                "apiwarden.client-assertion.key-file",
                file(
                        "short.pem",
                        "-----BEGIN PRIVATE KEY-----\n"
                                + java.util.Base64.getMimeEncoder()
                                        .encodeToString(generator
                                                .generateKeyPair()
                                                .getPrivate()
                                                .getEncoded())
                                + "\n-----END PRIVATE KEY-----\n"));
        props.remove("apiwarden.client-assertion.algorithm");
        assertThat(problems()).anyMatch(p -> p.contains("the RSA key has 1024 bits: RS256 needs 2048 or more"));

        props.put("apiwarden.client-assertion.key-file", file("key.pem", EC.privateKeyPkcs8Pem()));
        props.put("apiwarden.client-assertion.algorithm", "es256");
        assertThat(read().clientAssertionAlgorithm()).contains("ES256");
    }

    @Test
    void keySettingsForAnotherMethodAreAMistake() throws Exception {
        clientCredentials("basic");
        props.put("apiwarden.client-secret", "cs-8f2a61d0c4");
        props.put("apiwarden.client-assertion.key-file", file("key.pem", EC.privateKeyPkcs8Pem()));
        props.put("apiwarden.client-tls.certificate-file", file("tls.crt", EC.certificatePem()));

        assertThat(problems())
                .anyMatch(p -> p.startsWith("apiwarden.client-assertion.key-file")
                        && p.contains("is not a method that uses it"))
                .anyMatch(p -> p.startsWith("apiwarden.client-tls.certificate-file"));
    }

    @Test
    void mutualTlsTakesPemFilesOrAKeyStoreWithItsPasswordButNotBoth() throws Exception {
        clientCredentials("tls_client_auth");
        assertThat(problems()).anyMatch(p -> p.startsWith("no client certificate is set"));

        props.put("apiwarden.client-tls.certificate-file", file("tls.crt", EC.certificatePem()));
        assertThat(problems())
                .anyMatch(p -> p.startsWith("apiwarden.client-tls.key-file") && p.contains("is required too"));

        props.put("apiwarden.client-tls.key-file", file("tls.key", EC.privateKeyPkcs8Pem()));
        assertThat(read().clientTlsKeyFile()).isPresent();

        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry(
                "me", EC.keyPair().getPrivate(), "right".toCharArray(), new X509Certificate[] {EC.certificate()});
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ks.store(bytes, "right".toCharArray());
        String store =
                Files.write(dir.resolve("client.p12"), bytes.toByteArray()).toString();
        props.put("apiwarden.client-tls.key-store-file", store);
        assertThat(problems()).anyMatch(p -> p.startsWith("both a key store and PEM files are set"));

        props.remove("apiwarden.client-tls.certificate-file");
        props.remove("apiwarden.client-tls.key-file");
        props.put("apiwarden.client-tls.key-store-password-file", file("password", "wrong"));
        assertThat(problems()).anyMatch(p -> p.contains("the password file does not hold its password"));

        props.put("apiwarden.client-tls.key-store-password-file", file("password", "right\n"));
        assertThat(read().clientTlsKeyStoreFile()).isPresent();
    }

    @Test
    void aNamedApiHasItsOwnKeyAndNeverTheUnnamedOne() throws Exception {
        props.put("apiwarden.base-url", "https://api.example.com/v1");
        props.put("apiwarden.access-token", "a-1");
        props.put("apiwarden.client-assertion.key-file", file("key.pem", EC.privateKeyPkcs8Pem()));
        props.put("apiwarden.api.pay.base-url", "https://pay.example.com");
        props.put("apiwarden.api.pay.token-url", "https://sso.example.com/token");
        props.put("apiwarden.api.pay.grant", "client_credentials");
        props.put("apiwarden.api.pay.client-id", "pay");
        props.put("apiwarden.api.pay.client-auth", "private_key_jwt");
        props.put("apiwarden.api.pay.client-assertion.key-file", file("pay.pem", EC.privateKeyPkcs8Pem()));

        List<String> problems = catchThrowableOfType(
                        ConfigException.class, () -> AgentConfig.from(props::get, props.keySet(), Map.of(), List.of()))
                .problems();

        // The unnamed key is a mistake of the unnamed API (basic), and the named API has its own.
        assertThat(problems).hasSize(1).allMatch(p -> p.startsWith("apiwarden.client-assertion.key-file"));
        props.remove("apiwarden.client-assertion.key-file");
        WardenConfig pay = AgentConfig.from(props::get, props.keySet(), Map.of(), List.of())
                .apis()
                .get(1);
        assertThat(pay.clientAssertionKeyFile()).contains(dir.resolve("pay.pem"));
    }
}
