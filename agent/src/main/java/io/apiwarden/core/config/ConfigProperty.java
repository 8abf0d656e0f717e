package io.apiwarden.core.config;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Every property the agent reads: its name, default and meaning.
 *
 * <p>This is the single source for the configuration class, the command-line help and the
 * documentation check, so the three cannot drift apart.
 */
public enum ConfigProperty {
    ENABLED("apiwarden.enabled", "true", false, "false: the agent installs nothing at all"),
    CONFIG_FILE(
            "apiwarden.config-file",
            null,
            false,
            "a properties file holding any of these keys (named APIs' too); system properties and environment variables win"
                    + " over it; read once at start-up"),
    BASE_URL(
            "apiwarden.base-url",
            null,
            false,
            "the API base, e.g. https://api.example.com/v1 (required); only requests under it are managed"),
    AUTH_URL(
            "apiwarden.auth-url",
            null,
            false,
            "the token service base; the token endpoint is {auth-url}/token (required to refresh)"),
    TOKEN_URL(
            "apiwarden.token-url",
            "{auth-url}/token",
            false,
            "the full token endpoint, for providers that use another path"),
    GRANT(
            "apiwarden.grant",
            "refresh_token",
            false,
            "how the agent gets access tokens: refresh_token (with apiwarden.refresh-token), or client_credentials"
                    + " (with apiwarden.client-id and apiwarden.client-secret, no refresh token)"),
    ACCESS_TOKEN(
            "apiwarden.access-token",
            null,
            true,
            "the first access token (without one, the agent refreshes before the first call)"),
    ACCESS_TOKEN_FILE(
            "apiwarden.access-token-file",
            null,
            false,
            "a file holding the access token, followed as it changes: a new token written to it replaces the one held"),
    REFRESH_TOKEN("apiwarden.refresh-token", null, true, "the refresh token"),
    REFRESH_TOKEN_FILE(
            "apiwarden.refresh-token-file",
            null,
            false,
            "a file holding the refresh token; rewritten (owner-only) when the server rotates it"),
    CLIENT_ID(
            "apiwarden.client-id",
            null,
            false,
            "client id for authentication at the token endpoint (RFC 6749 section 2.3.1); required for client_credentials"),
    CLIENT_SECRET(
            "apiwarden.client-secret",
            null,
            true,
            "client secret for authentication at the token endpoint; required for client_credentials"),
    CLIENT_SECRET_FILE("apiwarden.client-secret-file", null, false, "a file holding the client secret"),
    CLIENT_AUTH(
            "apiwarden.client-auth",
            "basic",
            false,
            "how the client authenticates at the token endpoint: basic (id and secret by HTTP Basic, client_secret_basic),"
                    + " post (in the form, client_secret_post), private_key_jwt (a JWT signed with"
                    + " apiwarden.client-assertion.key-file), or tls_client_auth / self_signed_tls_client_auth (a client"
                    + " certificate from apiwarden.client-tls.*, RFC 8705)"),
    CLIENT_ASSERTION_KEY_FILE(
            "apiwarden.client-assertion.key-file",
            null,
            false,
            "for private_key_jwt: a PEM file holding the client's private key, PKCS#8 (BEGIN PRIVATE KEY), RSA or EC"),
    CLIENT_ASSERTION_KEY_ID(
            "apiwarden.client-assertion.key-id",
            null,
            false,
            "for private_key_jwt: the kid put in each assertion's header, for token services that hold several keys"
                    + " of the client (none unless set)"),
    CLIENT_ASSERTION_ALGORITHM(
            "apiwarden.client-assertion.algorithm",
            "RS256 or ES256/384/512",
            false,
            "for private_key_jwt: the JWS algorithm, one of RS256, RS384, RS512, PS256, PS384, PS512 (RSA keys) or"
                    + " ES256, ES384, ES512 (EC keys, by curve); by default RS256 for RSA, the curve's for EC"),
    CLIENT_TLS_KEY_STORE_FILE(
            "apiwarden.client-tls.key-store-file",
            null,
            false,
            "for tls_client_auth: a PKCS#12 file holding the client certificate (with its chain) and its key"),
    CLIENT_TLS_KEY_STORE_PASSWORD_FILE(
            "apiwarden.client-tls.key-store-password-file",
            null,
            false,
            "a file holding the password of apiwarden.client-tls.key-store-file (none unless set)"),
    CLIENT_TLS_CERTIFICATE_FILE(
            "apiwarden.client-tls.certificate-file",
            null,
            false,
            "for tls_client_auth, instead of a key store: a PEM file holding the client certificate, then its chain"),
    CLIENT_TLS_KEY_FILE(
            "apiwarden.client-tls.key-file",
            null,
            false,
            "with apiwarden.client-tls.certificate-file: a PEM file holding the certificate's private key, PKCS#8, RSA or EC"),
    SECRETS_CHECK_INTERVAL(
            "apiwarden.secrets.check-interval",
            "5s",
            false,
            "how often, at most, the files of the client secret, the client's keys and certificate and the store's"
                    + " password are looked at for a change, which is then used without a restart; a refusal of the"
                    + " client (invalid_client) looks at once"),
    SCOPE(
            "apiwarden.scope",
            null,
            false,
            "space-separated scopes asked for with each token request (RFC 6749 section 3.3); none unless set"),
    DPOP_ENABLED(
            "apiwarden.dpop.enabled",
            "false",
            false,
            "true: sender-constrained tokens (DPoP, RFC 9449): every token request and every attempt to the API carries a"
                    + " proof signed with the DPoP key, and the API gets Authorization: DPoP <token>"),
    DPOP_KEY_FILE(
            "apiwarden.dpop.key-file",
            null,
            false,
            "the DPoP private key, PKCS#8 PEM (EC P-256, or RSA of 2048 bits or more); without it a key is generated in"
                    + " memory at start (required with a token store: every JVM of the fleet must prove the same key);"
                    + " followed as it changes, looked at when a token request starts: a new key binds the next tokens"),
    DPOP_ALGORITHM(
            "apiwarden.dpop.algorithm",
            null,
            false,
            "the proofs' signature algorithm: ES256 for an EC P-256 key (its default); PS256 (the default for an RSA key)"
                    + " or RS256"),
    AUTHORIZATION(
            "apiwarden.authorization",
            "if-absent",
            false,
            "if-absent: add the bearer only when the app set no Authorization header; always: replace it"),
    BACKOFF_INITIAL_DELAY(
            "apiwarden.backoff.initial-delay",
            "2s",
            false,
            "wait before retry 1 of a rate-limited call; doubled for each further retry"),
    BACKOFF_MAX_RETRIES(
            "apiwarden.backoff.max-retries",
            "5",
            false,
            "how many times a rate-limited call is resent at most (0 to 10)"),
    BACKOFF_MAX_DELAY("apiwarden.backoff.max-delay", "5m", false, "cap on one wait, Retry-After included"),
    THROTTLE_GATE_ENABLED(
            "apiwarden.throttle.gate.enabled",
            "true",
            false,
            "false: each rate-limited call backs off on its own; true: while the API's global limit holds, new calls wait at one gate "
                    + "per JVM (per fleet with a Redis store) and one goes first when the window ends"),
    RETRY_BUDGET_RATIO(
            "apiwarden.throttle.retry-budget.ratio",
            "1",
            false,
            "rate-limit resends allowed, as a share of the calls of the last 10 s (0 to 1; 1: one resend a call on average); "
                    + "beyond it the app gets the 429 at once"),
    RETRY_BUDGET_MIN_PER_SECOND(
            "apiwarden.throttle.retry-budget.min-per-second",
            "3",
            false,
            "rate-limit resends always allowed per second, however few the calls (0 to 1000)"),
    RESEND_MAX_RECORDED_BODY(
            "apiwarden.resend.max-recorded-body",
            "1MiB",
            false,
            "a request body the client cannot send twice (a streamed one) is recorded up to this size as it is sent,"
                    + " so the call can be resent after a refresh or a rate limit; longer ones are not resent (0: record none; at most 64MiB)"),
    CLASSIFY_MAX_BODY_WAIT(
            "apiwarden.classify.max-body-wait",
            "1s",
            false,
            "how long the first bytes of an error body are waited for when only they can tell an invalid token;"
                    + " a body slower than this goes to the app as it comes, judged by its status"),
    TOKEN_TIMEOUT("apiwarden.token.timeout", "10s", false, "time limit for one request to the token endpoint"),
    STORE(
            "apiwarden.store",
            null,
            true,
            "where JVMs that share this OAuth client keep its token state: redis://[user[:password]@]host[:port][/db], "
                    + "or rediss://... for TLS (off unless set; a secret, as it may hold the password)"),
    STORE_PASSWORD_FILE(
            "apiwarden.store.password-file",
            null,
            false,
            "a file holding the store's password, instead of putting it in apiwarden.store"),
    STORE_KEY(
            "apiwarden.store.key",
            "apiwarden:{hash}",
            false,
            "prefix of the store's keys; by default apiwarden: and a hash of the token URL and client id (and, for client_credentials,"
                    + " the grant and scope), so two OAuth clients never share state"),
    STORE_TIMEOUT(
            "apiwarden.store.timeout",
            "500ms",
            false,
            "time limit for each operation on the store (connecting included); a call waiting for a token may wait this long"),
    STORE_ENCRYPTION_KEY_FILE(
            "apiwarden.store.encryption-key-file",
            null,
            false,
            "a file holding a 32-byte AES-256 key in base64 (openssl rand -base64 32): the tokens are stored encrypted"
                    + " (AES-GCM); followed as it changes, the key before kept for reading"),
    CLIENT_ENABLED(
            "apiwarden.instrumentation." + ConfigProperty.CLIENT + ".enabled",
            "true",
            false,
            "false: leave that HTTP client alone; " + ConfigProperty.CLIENT
                    + " is one of the managed clients listed below"),
    UNMANAGED_WARNINGS_ENABLED(
            "apiwarden.instrumentation.unmanaged-warnings.enabled",
            "true",
            false,
            "false: no warning when a call to the API goes out through a client the agent does not manage: one it watches call by call (HttpURLConnection, Apache HttpClient 4 and 5, Jetty, in the forms or with the modules it does not manage), or any other connection to the API's host and port, named by the calling library (a raw socket, Ktor CIO, Micronaut, a Vert.x before 4.5, a managed client switched off)"),
    TRACING_ENABLED(
            "apiwarden.tracing.enabled",
            "true",
            false,
            "false: no spans; otherwise the standard otel.* properties and OTEL_* variables configure the export"),
    METRICS_ENABLED("apiwarden.metrics.enabled", "true", false, "false: no metrics"),
    PROMETHEUS_PORT(
            "apiwarden.metrics.prometheus.port",
            null,
            false,
            "serve the metrics for Prometheus at http://{host}:{port}/metrics (off unless set)"),
    PROMETHEUS_HOST(
            "apiwarden.metrics.prometheus.host",
            "127.0.0.1",
            false,
            "the address the Prometheus endpoint listens on; loopback unless told otherwise"),
    REQUEST_ID_HEADERS(
            "apiwarden.telemetry.request-id-headers",
            "X-Request-Id,X-Correlation-Id,Request-Id,X-Amzn-RequestId,CF-Ray",
            false,
            "response headers searched, in order, for the request ID put on each attempt's span"),
    REQUEST_ID_HEADER(
            "apiwarden.request-id.header",
            null,
            false,
            "when set, managed requests without this header get a generated request ID in it, to match server logs"),
    LOG_LEVEL(
            "apiwarden.log.level",
            "info",
            false,
            "the agent's own log on standard error: off, error, warn, info or debug");

    /**
     * What a named API ({@code apiwarden.api.<name>.<property>}) never takes from the unnamed properties: what
     * says who the API and its OAuth client are. A token is never sent to a token endpoint it was not issued by.
     */
    private static final Set<ConfigProperty> IDENTITY = EnumSet.of(
            BASE_URL,
            AUTH_URL,
            TOKEN_URL,
            GRANT,
            ACCESS_TOKEN,
            ACCESS_TOKEN_FILE,
            REFRESH_TOKEN,
            REFRESH_TOKEN_FILE,
            CLIENT_ID,
            CLIENT_SECRET,
            CLIENT_SECRET_FILE,
            CLIENT_AUTH,
            CLIENT_ASSERTION_KEY_FILE,
            CLIENT_ASSERTION_KEY_ID,
            CLIENT_ASSERTION_ALGORITHM,
            CLIENT_TLS_KEY_STORE_FILE,
            CLIENT_TLS_KEY_STORE_PASSWORD_FILE,
            CLIENT_TLS_CERTIFICATE_FILE,
            CLIENT_TLS_KEY_FILE,
            SCOPE,
            STORE_KEY,
            DPOP_ENABLED,
            DPOP_KEY_FILE,
            DPOP_ALGORITHM);

    /** How an API's calls are made: a named API that does not set one takes the unnamed property's value. */
    private static final Set<ConfigProperty> TUNING = EnumSet.of(
            AUTHORIZATION,
            BACKOFF_INITIAL_DELAY,
            BACKOFF_MAX_RETRIES,
            BACKOFF_MAX_DELAY,
            THROTTLE_GATE_ENABLED,
            RETRY_BUDGET_RATIO,
            RETRY_BUDGET_MIN_PER_SECOND,
            RESEND_MAX_RECORDED_BODY,
            CLASSIFY_MAX_BODY_WAIT,
            TOKEN_TIMEOUT,
            SECRETS_CHECK_INTERVAL,
            STORE,
            STORE_PASSWORD_FILE,
            STORE_TIMEOUT,
            STORE_ENCRYPTION_KEY_FILE);

    /** The prefix of a named API's properties: {@code apiwarden.api.<name>.<property>}. */
    public static final String API_PREFIX = "apiwarden.api.";

    /** The environment's prefix of a named API's variables: {@code APIWARDEN_API_<NAME>_<PROPERTY>}. */
    public static final String API_ENV_PREFIX = "APIWARDEN_API_";

    /**
     * The place of a managed client's name in {@link #CLIENT_ENABLED}'s key: the agent's client modules
     * name the clients, and the configuration knows none of them.
     */
    public static final String CLIENT = "{client}";

    private final String key;
    private final String defaultValue;
    private final boolean secret;
    private final String description;

    ConfigProperty(String key, String defaultValue, boolean secret, String description) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.secret = secret;
        this.description = description;
    }

    /** The system property name, e.g. {@code apiwarden.base-url}. */
    public String key() {
        return key;
    }

    /** The environment variable that stands for the property, e.g. {@code APIWARDEN_BASE_URL}. */
    public String envName() {
        return envName(key);
    }

    /** The key with {@code client} for {@link #CLIENT}, e.g. {@code apiwarden.instrumentation.okhttp.enabled}. */
    public String keyFor(String client) {
        return key.replace(CLIENT, client);
    }

    /** The environment variable of {@link #keyFor}, e.g. {@code APIWARDEN_INSTRUMENTATION_OKHTTP_ENABLED}. */
    public String envNameFor(String client) {
        return envName(keyFor(client));
    }

    /** Whether each API has its own value of this property ({@code apiwarden.api.<name>.<property>}). */
    public boolean perApi() {
        return IDENTITY.contains(this) || TUNING.contains(this);
    }

    /** Whether this property names the API or its OAuth client: a named API never takes the unnamed value. */
    public boolean identity() {
        return IDENTITY.contains(this);
    }

    /** The property of the API {@code api}, e.g. {@code apiwarden.api.payments.base-url}. */
    public String keyOf(String api) {
        return API_PREFIX + api + "." + key.substring("apiwarden.".length());
    }

    /** The environment variable of {@link #keyOf}, e.g. {@code APIWARDEN_API_PAYMENTS_BASE_URL}. */
    public String envNameOf(String api) {
        return envName(keyOf(api));
    }

    /** The property {@code key} stands for, a named API's ({@code apiwarden.api.<name>.scope}) included; or null. */
    static ConfigProperty fromKey(String key) {
        String plain = key;
        if (key.startsWith(API_PREFIX)) {
            int dot = key.indexOf('.', API_PREFIX.length());
            plain = dot < 0 ? key : "apiwarden." + key.substring(dot + 1);
        }
        for (ConfigProperty p : values()) {
            if (p.key.equals(plain)) {
                return p;
            }
        }
        return null;
    }

    /** The part of the key after {@code apiwarden.}, e.g. {@code base-url}. */
    public String suffix() {
        return key.substring("apiwarden.".length());
    }

    static String envName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The default as written in the documentation, or null when there is none. */
    public String defaultValue() {
        return defaultValue;
    }

    /** True for values that must never be printed. */
    public boolean secret() {
        return secret;
    }

    public String description() {
        return description;
    }
}
