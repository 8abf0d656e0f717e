package io.apiwarden.cli;

import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.secret.JwsAlgorithms;
import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.tls.ClientCertificate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/**
 * The doctor's steps of key-based client authentication, before and after the token request: the key or
 * certificate as read (the configuration already refused one that cannot be read), and, when the token service
 * refused, which part it most likely refused. Never shows a key.
 */
final class ClientKeyCheck {
    private ClientKeyCheck() {}

    /** What was read, as a report line ({@code OK   …} or {@code FAIL …}); null for a secret-based method. */
    static String keyLine(WardenConfig config, Instant now) {
        ClientAuthentication method = config.clientAuthentication();
        try {
            if (method == ClientAuthentication.PRIVATE_KEY_JWT) {
                Path file = config.clientAssertionKeyFile().get();
                PrivateKey key = PemKeys.privateKey(SecretFile.readBytes(file));
                return "OK   client assertion key " + file + ": " + PemKeys.family(key) + ", signs "
                        + algorithm(config, key)
                        + config.clientAssertionKeyId().map(k -> ", kid " + k).orElse(", no kid");
            }
            if (method.certificateBased()) {
                X509Certificate certificate = certificate(config);
                String what = "client certificate "
                        + certificate.getSubjectX500Principal().getName() + " (issued by "
                        + certificate.getIssuerX500Principal().getName() + ", valid until "
                        + certificate.getNotAfter().toInstant() + ")";
                if (now.isAfter(certificate.getNotAfter().toInstant())
                        || now.isBefore(certificate.getNotBefore().toInstant())) {
                    return "FAIL " + what + ": not valid now; the token service will refuse it";
                }
                return "OK   " + what;
            }
        } catch (Exception e) {
            // The configuration read the same files a moment ago: one changed meanwhile.
            return "FAIL the client's key could not be read again ("
                    + e.getClass().getSimpleName() + ")";
        }
        return null;
    }

    /** What to check when the token service refused a key-based client, given the refusal's text; null otherwise. */
    static String afterRefusal(WardenConfig config, String failure) {
        ClientAuthentication method = config.clientAuthentication();
        String client = config.clientId().orElse("?");
        if (method == ClientAuthentication.PRIVATE_KEY_JWT && failure.contains("invalid_client")) {
            return "step failed: the token service did not accept the signed assertion of client " + client
                    + ": check that it holds this key's public key (or a JWKS URL with it"
                    + config.clientAssertionKeyId().map(k -> ", kid " + k).orElse("")
                    + "), that the client's signature algorithm is the one above, and that it takes the token URL as"
                    + " the audience";
        }
        if (method.certificateBased()) {
            if (failure.contains("did not answer")) {
                return "step failed: the TLS connection to the token service: check that it trusts the"
                        + " certificate's issuer (or, self-signed, the certificate) and that the JVM trusts the server's";
            }
            if (failure.contains("invalid_client") || failure.contains("unauthorized_client")) {
                return "step failed: the token service did not accept the certificate for client " + client
                        + ": check the client's X509 settings (subject DN, or the registered certificate) and that"
                        + " the token service asks for client certificates (Keycloak: --https-client-auth=request)";
            }
        }
        return null;
    }

    private static String algorithm(WardenConfig config, PrivateKey key) {
        return config.clientAssertionAlgorithm().orElseGet(() -> JwsAlgorithms.defaultFor(key));
    }

    private static X509Certificate certificate(WardenConfig config) throws Exception {
        if (config.clientTlsCertificateFile().isPresent()) {
            return PemKeys.certificates(SecretFile.readBytes(
                            config.clientTlsCertificateFile().get()))
                    .get(0);
        }
        String password = config.clientTlsKeyStorePasswordFile().isPresent()
                ? new String(
                                SecretFile.readBytes(
                                        config.clientTlsKeyStorePasswordFile().get()),
                                StandardCharsets.UTF_8)
                        .trim()
                : "";
        KeyStore store = ClientCertificate.pkcs12(
                SecretFile.readBytes(config.clientTlsKeyStoreFile().get()), password.toCharArray());
        List<String> aliases = Collections.list(store.aliases());
        for (String alias : aliases) {
            if (store.isKeyEntry(alias)) {
                return (X509Certificate) store.getCertificate(alias);
            }
        }
        throw new IllegalStateException("no key entry");
    }
}
