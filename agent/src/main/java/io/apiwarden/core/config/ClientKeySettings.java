package io.apiwarden.core.config;

import io.apiwarden.core.secret.JwsAlgorithms;
import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.tls.ClientCertificate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.function.Function;

/**
 * The files of key-based client authentication ({@code private_key_jwt}, {@code tls_client_auth}) and how often
 * secret files are looked at for a change. Each file is read and checked here, once, so that a wrong key or
 * password is a configuration error at start-up; the agent reads them again as they change.
 */
final class ClientKeySettings {
    static final Duration MAX_CHECK_INTERVAL = Duration.ofHours(1);

    final Path assertionKeyFile;
    final String assertionKeyId;
    /** The configured JWS algorithm, or null for the key's default. */
    final String assertionAlgorithm;

    final Path tlsKeyStoreFile;
    final Path tlsKeyStorePasswordFile;
    final Path tlsCertificateFile;
    final Path tlsKeyFile;
    final Duration checkInterval;

    private ClientKeySettings(SectionReader r, ClientAuthentication method) {
        checkInterval = checkInterval(r);
        boolean jwt = method == ClientAuthentication.PRIVATE_KEY_JWT;
        assertionKeyFile = path(r, ConfigProperty.CLIENT_ASSERTION_KEY_FILE, jwt);
        assertionKeyId = onlyWith(r, ConfigProperty.CLIENT_ASSERTION_KEY_ID, jwt);
        assertionAlgorithm = algorithm(r, jwt);
        boolean tls = method.certificateBased();
        tlsKeyStoreFile = path(r, ConfigProperty.CLIENT_TLS_KEY_STORE_FILE, tls);
        tlsKeyStorePasswordFile = path(r, ConfigProperty.CLIENT_TLS_KEY_STORE_PASSWORD_FILE, tls);
        tlsCertificateFile = path(r, ConfigProperty.CLIENT_TLS_CERTIFICATE_FILE, tls);
        tlsKeyFile = path(r, ConfigProperty.CLIENT_TLS_KEY_FILE, tls);
    }

    /** {@code apiwarden.secrets.check-interval}, for every section with a secret file (a wrong value is said once). */
    static Duration checkInterval(SectionReader r) {
        return r.duration(
                ConfigProperty.SECRETS_CHECK_INTERVAL,
                MAX_CHECK_INTERVAL,
                Durations.parse(ConfigProperty.SECRETS_CHECK_INTERVAL.defaultValue()));
    }

    static ClientKeySettings read(SectionReader r, ClientAuthentication method) {
        ClientKeySettings s = new ClientKeySettings(r, method);
        if (method == ClientAuthentication.PRIVATE_KEY_JWT) {
            s.checkAssertionKey(r);
        } else if (method.certificateBased()) {
            s.checkCertificate(r);
        }
        return s;
    }

    private void checkAssertionKey(SectionReader r) {
        ConfigProperty p = ConfigProperty.CLIENT_ASSERTION_KEY_FILE;
        if (assertionKeyFile == null) {
            r.problems()
                    .add(r.where(p) + " is required with " + r.key(ConfigProperty.CLIENT_AUTH)
                            + "=private_key_jwt: give the PEM file of the client's private key (PKCS#8, RSA or EC)");
            return;
        }
        PrivateKey key = read(r, p, assertionKeyFile, PemKeys::privateKey);
        String flaw = key == null
                ? null
                : JwsAlgorithms.flaw(
                        assertionAlgorithm != null ? assertionAlgorithm : JwsAlgorithms.defaultFor(key), key);
        if (flaw != null) {
            r.problems().add(r.where(ConfigProperty.CLIENT_ASSERTION_ALGORITHM) + ": " + flaw);
        }
    }

    private void checkCertificate(SectionReader r) {
        boolean store = tlsKeyStoreFile != null;
        boolean pem = tlsCertificateFile != null || tlsKeyFile != null;
        if (store == pem) {
            r.problems()
                    .add((store ? "both a key store and PEM files are set" : "no client certificate is set") + " for "
                            + r.key(ConfigProperty.CLIENT_AUTH) + ": give "
                            + r.key(ConfigProperty.CLIENT_TLS_KEY_STORE_FILE)
                            + " (PKCS#12, with " + r.key(ConfigProperty.CLIENT_TLS_KEY_STORE_PASSWORD_FILE) + "), or "
                            + r.key(ConfigProperty.CLIENT_TLS_CERTIFICATE_FILE) + " and "
                            + r.key(ConfigProperty.CLIENT_TLS_KEY_FILE) + " (PEM)");
            return;
        }
        if (store) {
            byte[] bytes = read(r, ConfigProperty.CLIENT_TLS_KEY_STORE_FILE, tlsKeyStoreFile, b -> b);
            String password = tlsKeyStorePasswordFile == null
                    ? ""
                    : r.secretFile(
                            ConfigProperty.CLIENT_TLS_KEY_STORE_PASSWORD_FILE,
                            tlsKeyStorePasswordFile.toString(),
                            "the key store's password");
            if (bytes != null && password != null) {
                try {
                    ClientCertificate.pkcs12(bytes, password.toCharArray());
                } catch (IllegalArgumentException e) {
                    r.problems().add(r.where(ConfigProperty.CLIENT_TLS_KEY_STORE_FILE) + " " + e.getMessage());
                }
            }
            return;
        }
        if (tlsCertificateFile == null || tlsKeyFile == null) {
            ConfigProperty missing = tlsKeyFile == null
                    ? ConfigProperty.CLIENT_TLS_KEY_FILE
                    : ConfigProperty.CLIENT_TLS_CERTIFICATE_FILE;
            r.problems().add(r.where(missing) + " is required too: the certificate and its private key go together");
            return;
        }
        read(r, ConfigProperty.CLIENT_TLS_CERTIFICATE_FILE, tlsCertificateFile, PemKeys::certificates);
        read(r, ConfigProperty.CLIENT_TLS_KEY_FILE, tlsKeyFile, PemKeys::privateKey);
    }

    /** The parsed content of a key file, or null after reporting why it cannot be used. */
    private static <T> T read(SectionReader r, ConfigProperty p, Path file, Function<byte[], T> parse) {
        try {
            byte[] content = SecretFile.readBytes(file);
            if (new String(content, StandardCharsets.UTF_8).trim().isEmpty()) {
                r.problems().add(r.where(p) + " = " + file + " is empty: put the key in it, or unset the property");
                return null;
            }
            return parse.apply(content);
        } catch (SecretFile.Unusable | IllegalArgumentException e) {
            r.problems().add(r.where(p) + " = " + file + " " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            r.problems()
                    .add("cannot read " + r.where(p) + " = " + file + " ("
                            + e.getClass().getSimpleName()
                            + "): check that the file exists and that this process may read it");
        }
        return null;
    }

    /** The file {@code p} names; a problem when it is set for a method that does not use it. */
    private static Path path(SectionReader r, ConfigProperty p, boolean used) {
        String value = onlyWith(r, p, used);
        return value == null ? null : Paths.get(value);
    }

    private static String onlyWith(SectionReader r, ConfigProperty p, boolean used) {
        String value = r.raw(p);
        if (value != null && !used) {
            r.problems()
                    .add(r.where(p) + " is set, but " + r.key(ConfigProperty.CLIENT_AUTH)
                            + " is not a method that uses it:"
                            + " set " + r.key(ConfigProperty.CLIENT_AUTH) + " (private_key_jwt for client-assertion.*,"
                            + " tls_client_auth or self_signed_tls_client_auth for client-tls.*), or unset it");
            return null;
        }
        return value;
    }

    private static String algorithm(SectionReader r, boolean used) {
        String value = onlyWith(r, ConfigProperty.CLIENT_ASSERTION_ALGORITHM, used);
        if (value == null) {
            return null;
        }
        String named = JwsAlgorithms.named(value);
        if (named == null) {
            r.problems()
                    .add(r.where(ConfigProperty.CLIENT_ASSERTION_ALGORITHM) + " is '" + value + "': set one of "
                            + String.join(", ", JwsAlgorithms.ALL));
        }
        return named;
    }
}
