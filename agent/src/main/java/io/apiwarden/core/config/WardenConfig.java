package io.apiwarden.core.config;

import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.Grant;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The configuration of one API, as its {@code Warden} needs it: the API's own sections (its identity, how its
 * calls are made, its store) and the agent-wide ones (telemetry, instrumentation), which every API shares. Read
 * by {@link AgentConfig}; immutable; secrets are held but never printed.
 */
public final class WardenConfig {
    /** The name of the API the unnamed properties define. */
    public static final String DEFAULT_API = "default";

    /** What the agent does when the app set its own {@code Authorization} header. */
    public enum AuthorizationMode {
        IF_ABSENT,
        ALWAYS
    }

    private final String name;
    private final boolean severalApis;
    private final boolean enabled;
    private final ApiSettings api;
    /** The API's base less the bases of other APIs under it: a request there is theirs. */
    private final ApiScope scope;

    private final CallSettings calls;
    private final StoreSettings store;
    private final TelemetrySettings telemetry;
    private final InstrumentationSettings instrumentation;
    private final List<String> warnings;

    /**
     * @param severalApis whether the agent manages other APIs beside this one
     * @param innerBases the base URLs of other APIs under this API's base (same origin, longer path)
     */
    WardenConfig(
            String name,
            boolean severalApis,
            List<URI> innerBases,
            boolean enabled,
            ApiSettings api,
            CallSettings calls,
            StoreSettings store,
            TelemetrySettings telemetry,
            InstrumentationSettings instrumentation,
            List<String> warnings) {
        this.name = name;
        this.severalApis = severalApis;
        this.enabled = enabled;
        this.api = api;
        this.scope = api.scope.excludingApisUnder(innerBases);
        this.calls = calls;
        this.store = store;
        this.telemetry = telemetry;
        this.instrumentation = instrumentation;
        this.warnings = List.copyOf(warnings);
    }

    /** Reads the JVM's system properties, environment and configuration file: the first API's configuration. */
    public static WardenConfig fromEnvironment() throws ConfigException {
        return AgentConfig.fromEnvironment(List.of()).apis().get(0);
    }

    /** As {@link #fromEnvironment()}, with the switch of each managed client named in {@code clients}. */
    public static WardenConfig fromEnvironment(Collection<String> clients) throws ConfigException {
        return AgentConfig.fromEnvironment(clients).apis().get(0);
    }

    /**
     * Reads the configuration of the first API: a system property wins over its environment variable.
     *
     * @throws ConfigException naming every property that is wrong and what to do about it
     */
    public static WardenConfig from(Function<String, String> systemProperties, Map<String, String> environment)
            throws ConfigException {
        return from(systemProperties, environment, List.of());
    }

    /**
     * As above, with the switch ({@link ConfigProperty#CLIENT_ENABLED}) of each managed client named in
     * {@code clients}.
     *
     * @throws ConfigException naming every property that is wrong and what to do about it
     */
    public static WardenConfig from(
            Function<String, String> systemProperties, Map<String, String> environment, Collection<String> clients)
            throws ConfigException {
        return AgentConfig.from(systemProperties, List.of(), environment, clients)
                .apis()
                .get(0);
    }

    /** Whether the agent should install anything. Only {@code apiwarden.enabled} is read when it is false. */
    public static boolean isEnabled(Function<String, String> systemProperties, Map<String, String> environment) {
        PropertySource source = PropertySource.of(systemProperties, List.of(), environment, new Problems());
        String value = source.value(ConfigProperty.ENABLED.key(), ConfigProperty.ENABLED.envName());
        return value == null || !value.equalsIgnoreCase("false");
    }

    /** The API's name: {@link #DEFAULT_API} for the unnamed properties, else {@code <name>} of {@code apiwarden.api.<name>.*}. */
    public String name() {
        return name;
    }

    /** Whether the agent manages other APIs beside this one: then its log lines name it. */
    public boolean severalApis() {
        return severalApis;
    }

    public boolean enabled() {
        return enabled;
    }

    /** Which requests are managed: under the base URL, and not under another API's base within it. */
    public ApiScope scope() {
        return scope;
    }

    /** The token endpoint, or empty when no refresh is possible. */
    public Optional<URI> tokenUrl() {
        return Optional.ofNullable(api.tokenUrl);
    }

    /** The first access token, or empty when the agent must refresh before the first call. */
    public Optional<String> accessToken() {
        return Optional.ofNullable(api.accessToken);
    }

    public Optional<String> refreshToken() {
        return Optional.ofNullable(api.refreshToken);
    }

    /** Where a rotated refresh token is written back, when the refresh token came from a file. */
    public Optional<Path> refreshTokenFile() {
        return Optional.ofNullable(api.refreshTokenFile);
    }

    /** The file the access token came from, which the agent follows as it changes; empty when it was set as a value. */
    public Optional<Path> accessTokenFile() {
        return Optional.ofNullable(api.accessTokenFile);
    }

    public Optional<String> clientId() {
        return Optional.ofNullable(api.clientId);
    }

    public Optional<String> clientSecret() {
        return Optional.ofNullable(api.clientSecret);
    }

    /** The file the client secret came from, which the agent follows as it changes; empty when it was set as a value. */
    public Optional<Path> clientSecretFile() {
        return Optional.ofNullable(api.clientSecretFile);
    }

    /** For {@code private_key_jwt}: the PEM file of the private key that signs the client assertions. */
    public Optional<Path> clientAssertionKeyFile() {
        return Optional.ofNullable(api.clientKeys.assertionKeyFile);
    }

    /** The {@code kid} of the client assertions' header, if any. */
    public Optional<String> clientAssertionKeyId() {
        return Optional.ofNullable(api.clientKeys.assertionKeyId);
    }

    /** The JWS algorithm of the client assertions, as configured; empty for the key's default. */
    public Optional<String> clientAssertionAlgorithm() {
        return Optional.ofNullable(api.clientKeys.assertionAlgorithm);
    }

    /** For mutual TLS: the PKCS#12 file of the client certificate and its key. */
    public Optional<Path> clientTlsKeyStoreFile() {
        return Optional.ofNullable(api.clientKeys.tlsKeyStoreFile);
    }

    /** The file holding the password of {@link #clientTlsKeyStoreFile}; empty for none. */
    public Optional<Path> clientTlsKeyStorePasswordFile() {
        return Optional.ofNullable(api.clientKeys.tlsKeyStorePasswordFile);
    }

    /** For mutual TLS without a key store: the PEM file of the client certificate and its chain. */
    public Optional<Path> clientTlsCertificateFile() {
        return Optional.ofNullable(api.clientKeys.tlsCertificateFile);
    }

    /** The PEM (PKCS#8) file of the private key of {@link #clientTlsCertificateFile}. */
    public Optional<Path> clientTlsKeyFile() {
        return Optional.ofNullable(api.clientKeys.tlsKeyFile);
    }

    /** How often, at most, secret and key files are looked at for a change. */
    public Duration secretsCheckInterval() {
        return api.clientKeys.checkInterval;
    }

    /** How access tokens are obtained: {@code apiwarden.grant}, with {@code apiwarden.scope}. */
    public Grant grant() {
        return api.grant;
    }

    /** How the client id and secret go to the token endpoint. */
    public ClientAuthentication clientAuthentication() {
        return api.clientAuthentication;
    }

    /** The key DPoP proofs are signed with, or empty when the tokens are plain bearer tokens. */
    public Optional<DpopKey> dpop() {
        return Optional.ofNullable(api.dpopKey);
    }

    /** The file the DPoP key was read from, which the agent follows as it changes; empty for a generated key. */
    public Optional<Path> dpopKeyFile() {
        return Optional.ofNullable(api.dpopKeyFile);
    }

    /** The configured algorithm of the DPoP proofs ({@code apiwarden.dpop.algorithm}), or null for the key's own. */
    public Optional<String> dpopAlgorithm() {
        return Optional.ofNullable(api.dpopAlgorithm);
    }

    public AuthorizationMode authorizationMode() {
        return calls.authorizationMode;
    }

    public Duration backoffInitialDelay() {
        return calls.backoffInitialDelay;
    }

    public int backoffMaxRetries() {
        return calls.backoffMaxRetries;
    }

    public Duration backoffMaxDelay() {
        return calls.backoffMaxDelay;
    }

    /** Whether new calls wait at one gate while the API's global rate limit holds. */
    public boolean throttleGateEnabled() {
        return calls.throttleGateEnabled;
    }

    /** Rate-limit resends allowed, as a share of the calls of the last ten seconds. */
    public double retryBudgetRatio() {
        return calls.retryBudgetRatio;
    }

    /** Rate-limit resends always allowed per second. */
    public int retryBudgetMinPerSecond() {
        return calls.retryBudgetMinPerSecond;
    }

    /** The longest request body recorded as it is sent so that it can be resent; 0 when none is. */
    public long maxRecordedBody() {
        return calls.maxRecordedBody;
    }

    /**
     * How long an error's first bytes are waited for when only its body can tell an invalid token: the app gets
     * the response's head no later than this after it arrived, however slowly the body comes.
     */
    public Duration maxErrorBodyWait() {
        return calls.maxErrorBodyWait;
    }

    public Duration tokenTimeout() {
        return calls.tokenTimeout;
    }

    /**
     * Whether the agent manages the client named {@code client} ({@code apiwarden.instrumentation.<client>.enabled}).
     *
     * @throws IllegalArgumentException when the configuration was not read with that client's name
     */
    public boolean clientEnabled(String client) {
        return instrumentation.clientEnabled(client);
    }

    /** Whether an API call through a client the agent does not manage is named in a warning. */
    public boolean unmanagedWarningsEnabled() {
        return instrumentation.unmanagedWarningsEnabled;
    }

    public boolean tracingEnabled() {
        return telemetry.tracingEnabled;
    }

    public boolean metricsEnabled() {
        return telemetry.metricsEnabled;
    }

    /** The port of the Prometheus endpoint, or empty when there is none. */
    public Optional<Integer> prometheusPort() {
        return Optional.ofNullable(telemetry.prometheusPort);
    }

    public String prometheusHost() {
        return telemetry.prometheusHost;
    }

    /** Response headers that may carry a request ID, in the order they are tried. */
    public List<String> requestIdHeaders() {
        return telemetry.requestIdHeaders;
    }

    /** The header to send a generated request ID in, or empty. */
    public Optional<String> requestIdHeader() {
        return Optional.ofNullable(telemetry.requestIdHeader);
    }

    /** The Redis store the JVMs of this OAuth client share, when {@code apiwarden.store} names one. */
    public Optional<RedisStoreSettings> redisStore() {
        return Optional.ofNullable(store.redis);
    }

    /** How long one operation on a token store (the Redis one, or the refresh-token file's lock) may take. */
    public Duration storeTimeout() {
        return store.timeout;
    }

    /** Settings that work but deserve a look (cleartext HTTP to another host, an unwritable token folder). */
    public List<String> warnings() {
        return warnings;
    }

    /** Describes the configuration with every secret replaced by whether it is set. */
    @Override
    public String toString() {
        return "WardenConfig{" + (name.equals(DEFAULT_API) ? "" : "api=" + name + ", ")
                + "base-url=" + api.scope.baseUrl()
                + ", token-url=" + api.tokenUrl
                + ", grant=" + api.grant.type()
                + (api.grant.scope() == null ? "" : ", scope=" + api.grant.scope())
                + ", access-token=" + (api.accessToken == null ? "<none>" : "<set>")
                + ", refresh-token=" + (api.refreshToken == null ? "<none>" : "<set>")
                + ", refresh-token-file=" + api.refreshTokenFile
                + ", store=" + store.describe(api.refreshTokenFile != null)
                + ", client-id=" + api.clientId
                + ", client-secret=" + (api.clientSecret == null ? "<none>" : "<set>")
                + (api.clientKeys.assertionKeyFile == null
                        ? ""
                        : ", client-assertion.key-file=" + api.clientKeys.assertionKeyFile)
                + (api.clientKeys.tlsKeyStoreFile == null
                        ? ""
                        : ", client-tls.key-store-file=" + api.clientKeys.tlsKeyStoreFile)
                + (api.clientKeys.tlsCertificateFile == null
                        ? ""
                        : ", client-tls.certificate-file=" + api.clientKeys.tlsCertificateFile)
                + (api.clientId == null ? "" : ", client-auth=" + api.clientAuthentication.configValue())
                + (api.dpopKey == null ? "" : ", dpop=" + api.dpopKey.algorithm())
                + ", " + calls.describe()
                + ", clients=" + new TreeMap<>(instrumentation.clientsEnabled)
                + ", unmanaged-warnings=" + instrumentation.unmanagedWarningsEnabled + "}";
    }
}
