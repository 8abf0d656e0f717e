package io.apiwarden.core;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.JwsAlgorithms;
import io.apiwarden.core.secret.PemKeys;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.ClientAuthenticator;
import io.apiwarden.core.token.SecretAuthenticator;
import io.apiwarden.core.token.TokenText;
import io.apiwarden.core.token.jose.SignedJwtAuthenticator;
import io.apiwarden.core.token.tls.ClientCertificate;
import io.apiwarden.core.token.tls.TlsClientAuthenticator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.function.Function;

/**
 * The client authentication of an API's token requests, from its configuration, with each file it names followed
 * as it changes. The JOSE library's classes load only when {@code private_key_jwt} is configured: the one line that
 * names them runs only then.
 */
final class ClientAuthenticators {
    private ClientAuthenticators() {}

    /** The API's client authentication; {@link ClientAuthenticator#NONE} without a client id. */
    static ClientAuthenticator of(WardenConfig config, Clock clock) {
        String clientId = config.clientId().orElse(null);
        if (clientId == null) {
            return ClientAuthenticator.NONE;
        }
        ClientAuthentication method = config.clientAuthentication();
        try {
            if (method == ClientAuthentication.PRIVATE_KEY_JWT) {
                return new SignedJwtAuthenticator(
                        clientId,
                        follow(
                                config,
                                ConfigProperty.CLIENT_ASSERTION_KEY_FILE,
                                config.clientAssertionKeyFile().get(),
                                PemKeys::privateKey,
                                clock),
                        key -> config.clientAssertionAlgorithm().orElseGet(() -> JwsAlgorithms.defaultFor(key)),
                        config.clientAssertionKeyId().orElse(null),
                        clock);
            }
            if (method.certificateBased()) {
                return new TlsClientAuthenticator(clientId, method.configValue(), certificate(config, clock), null);
            }
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            // The configuration read these files a moment ago: one that fails now was changed meanwhile.
            AgentLog.error("the client authentication " + method.configValue() + " of the API " + config.name()
                    + " could not be set up (" + why(e) + "); token requests go without it until a restart");
            return ClientAuthenticator.NONE;
        }
        ReloadableSecret<String> secret = config.clientSecretFile().isPresent()
                ? followSecret(config, clock)
                : ReloadableSecret.fixed(
                        ConfigProperty.CLIENT_SECRET.key(),
                        config.clientSecret().orElse(null));
        return new SecretAuthenticator(clientId, secret, method);
    }

    private static ReloadableSecret<String> followSecret(WardenConfig config, Clock clock) {
        try {
            return follow(
                    config,
                    ConfigProperty.CLIENT_SECRET_FILE,
                    config.clientSecretFile().get(),
                    ClientAuthenticators::secretText,
                    clock);
        } catch (IOException e) {
            AgentLog.warn(
                    key(config, ConfigProperty.CLIENT_SECRET_FILE) + " changed since start-up and cannot be used ("
                            + why(e) + "); the secret read at start-up is used and the file is not followed");
            return ReloadableSecret.fixed(
                    ConfigProperty.CLIENT_SECRET.key(), config.clientSecret().orElse(null));
        }
    }

    private static ClientCertificate certificate(WardenConfig config, Clock clock) throws IOException {
        if (config.clientTlsKeyStoreFile().isPresent()) {
            ReloadableSecret<String> password =
                    config.clientTlsKeyStorePasswordFile().isPresent()
                            ? follow(
                                    config,
                                    ConfigProperty.CLIENT_TLS_KEY_STORE_PASSWORD_FILE,
                                    config.clientTlsKeyStorePasswordFile().get(),
                                    bytes -> new String(bytes, StandardCharsets.UTF_8).trim(),
                                    clock)
                            : ReloadableSecret.fixed(ConfigProperty.CLIENT_TLS_KEY_STORE_PASSWORD_FILE.key(), "");
            return ClientCertificate.pkcs12(
                    follow(
                            config,
                            ConfigProperty.CLIENT_TLS_KEY_STORE_FILE,
                            config.clientTlsKeyStoreFile().get(),
                            b -> b,
                            clock),
                    password);
        }
        return ClientCertificate.pem(
                follow(
                        config,
                        ConfigProperty.CLIENT_TLS_CERTIFICATE_FILE,
                        config.clientTlsCertificateFile().get(),
                        PemKeys::certificates,
                        clock),
                follow(
                        config,
                        ConfigProperty.CLIENT_TLS_KEY_FILE,
                        config.clientTlsKeyFile().get(),
                        PemKeys::privateKey,
                        clock));
    }

    /** {@code file}, named by {@code p}, followed as it changes at the API's check interval. */
    static <T> ReloadableSecret<T> follow(
            WardenConfig config, ConfigProperty p, Path file, Function<byte[], T> parse, Clock clock)
            throws IOException {
        return ReloadableSecret.open(key(config, p), file, parse, clock, config.secretsCheckInterval());
    }

    /** Why, for a log line: the agent's own messages are quoted, another library's (which may quote what it read) not. */
    static String why(Exception e) {
        return e instanceof SecretFile.Unusable ? e.getMessage() : e.getClass().getSimpleName();
    }

    /** The property as this API's configuration names it, for log lines. */
    static String key(WardenConfig config, ConfigProperty p) {
        return config.name().equals(WardenConfig.DEFAULT_API) ? p.key() : p.keyOf(config.name());
    }

    /** A client secret as the configuration takes it: trimmed, printable, without spaces. */
    static String secretText(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8).trim();
        if (!TokenText.isValid(text)) {
            throw new IllegalArgumentException(
                    "contains spaces or control characters: put the bare secret in it, without quotes or line breaks");
        }
        return text;
    }
}
