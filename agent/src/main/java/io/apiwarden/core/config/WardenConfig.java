package io.apiwarden.core.config;

import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.ClientAuthentication;
import io.apiwarden.core.token.Grant;
import io.apiwarden.core.token.TokenText;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The agent's configuration, read once from system properties and environment variables and
 * validated as a whole. Immutable; secrets are held but never printed.
 */
public final class WardenConfig {
    /** Beyond ten doublings of even a 2 s start the waits exceed half an hour: no caller waits that long. */
    static final int MAX_RETRIES_LIMIT = 10;
    /** The longest body the agent records for a resend: it is held in memory for the whole call. */
    static final long MAX_RECORDED_BODY_LIMIT = 64L * 1024 * 1024;
    /** No wait or time-out the agent keeps is longer than a day; longer values are typing mistakes. */
    static final Duration MAX_DURATION = Duration.ofHours(24);

    /** What the agent does when the app set its own {@code Authorization} header. */
    public enum AuthorizationMode {
        IF_ABSENT,
        ALWAYS
    }

    private final boolean enabled;
    private final ApiScope scope;
    private final URI tokenUrl;
    private final String accessToken;
    private final String refreshToken;
    private final Path refreshTokenFile;
    private final String clientId;
    private final String clientSecret;
    private final Grant grant;
    private final ClientAuthentication clientAuthentication;
    private final AuthorizationMode authorizationMode;
    private final Duration backoffInitialDelay;
    private final int backoffMaxRetries;
    private final Duration backoffMaxDelay;
    private final long maxRecordedBody;
    private final Duration maxErrorBodyWait;
    private final Duration tokenTimeout;
    /** Each managed client's name (as in {@code apiwarden.instrumentation.<client>.enabled}) to whether it is managed. */
    private final Map<String, Boolean> clientsEnabled;

    private final boolean unmanagedWarningsEnabled;
    private final boolean tracingEnabled;
    private final boolean throttleGateEnabled;
    private final double retryBudgetRatio;
    private final int retryBudgetMinPerSecond;
    private final boolean metricsEnabled;
    private final Integer prometheusPort;
    private final String prometheusHost;
    private final List<String> requestIdHeaders;
    private final String requestIdHeader;
    private final List<String> warnings;
    private final RedisStoreSettings redisStore;
    private final Duration storeTimeout;

    private WardenConfig(Reader r) {
        this.enabled = r.enabled;
        this.scope = r.scope;
        this.tokenUrl = r.tokenUrl;
        this.accessToken = r.accessToken;
        this.refreshToken = r.refreshToken;
        this.refreshTokenFile = r.refreshTokenFile;
        this.clientId = r.clientId;
        this.clientSecret = r.clientSecret;
        this.grant = r.grant;
        this.clientAuthentication = r.clientAuthentication;
        this.authorizationMode = r.authorizationMode;
        this.backoffInitialDelay = r.backoffInitialDelay;
        this.backoffMaxRetries = r.backoffMaxRetries;
        this.backoffMaxDelay = r.backoffMaxDelay;
        this.throttleGateEnabled = r.throttleGateEnabled;
        this.retryBudgetRatio = r.retryBudgetRatio;
        this.retryBudgetMinPerSecond = r.retryBudgetMinPerSecond;
        this.maxRecordedBody = r.maxRecordedBody;
        this.maxErrorBodyWait = r.maxErrorBodyWait;
        this.tokenTimeout = r.tokenTimeout;
        this.clientsEnabled = Map.copyOf(r.clientsEnabled);
        this.unmanagedWarningsEnabled = r.unmanagedWarningsEnabled;
        this.tracingEnabled = r.tracingEnabled;
        this.metricsEnabled = r.metricsEnabled;
        this.prometheusPort = r.prometheusPort;
        this.prometheusHost = r.prometheusHost;
        this.requestIdHeaders = r.requestIdHeaders;
        this.requestIdHeader = r.requestIdHeader;
        this.warnings = List.copyOf(r.warnings);
        this.redisStore = r.redisStore;
        this.storeTimeout = r.storeTimeout;
    }

    /** Reads the JVM's system properties and environment. */
    public static WardenConfig fromEnvironment() throws ConfigException {
        return fromEnvironment(List.of());
    }

    /** Reads the JVM's system properties and environment, with the switch of each managed client named in {@code clients}. */
    public static WardenConfig fromEnvironment(Collection<String> clients) throws ConfigException {
        return from(System::getProperty, System.getenv(), clients);
    }

    /**
     * Reads the configuration: a system property wins over its environment variable.
     *
     * @throws ConfigException naming every property that is wrong and what to do about it
     */
    public static WardenConfig from(Function<String, String> systemProperties, Map<String, String> environment)
            throws ConfigException {
        return from(systemProperties, environment, List.of());
    }

    /**
     * Reads the configuration and the switch ({@link ConfigProperty#CLIENT_ENABLED}) of each managed client
     * named in {@code clients}.
     *
     * @throws ConfigException naming every property that is wrong and what to do about it
     */
    public static WardenConfig from(
            Function<String, String> systemProperties, Map<String, String> environment, Collection<String> clients)
            throws ConfigException {
        Reader r = new Reader(systemProperties, environment);
        r.read();
        for (String client : clients) {
            r.clientsEnabled.put(client, r.clientSwitch(client));
        }
        if (!r.problems.isEmpty()) {
            throw new ConfigException(r.problems);
        }
        return new WardenConfig(r);
    }

    /** Whether the agent should install anything. Only {@code apiwarden.enabled} is read when it is false. */
    public static boolean isEnabled(Function<String, String> systemProperties, Map<String, String> environment) {
        String value = new Reader(systemProperties, environment).raw(ConfigProperty.ENABLED);
        return value == null || !value.trim().equalsIgnoreCase("false");
    }

    public boolean enabled() {
        return enabled;
    }

    /** Which requests are managed. */
    public ApiScope scope() {
        return scope;
    }

    /** The token endpoint, or empty when no refresh is possible. */
    public Optional<URI> tokenUrl() {
        return Optional.ofNullable(tokenUrl);
    }

    /** The first access token, or empty when the agent must refresh before the first call. */
    public Optional<String> accessToken() {
        return Optional.ofNullable(accessToken);
    }

    public Optional<String> refreshToken() {
        return Optional.ofNullable(refreshToken);
    }

    /** Where a rotated refresh token is written back, when the refresh token came from a file. */
    public Optional<Path> refreshTokenFile() {
        return Optional.ofNullable(refreshTokenFile);
    }

    public Optional<String> clientId() {
        return Optional.ofNullable(clientId);
    }

    public Optional<String> clientSecret() {
        return Optional.ofNullable(clientSecret);
    }

    /** How access tokens are obtained: {@code apiwarden.grant}, with {@code apiwarden.scope}. */
    public Grant grant() {
        return grant;
    }

    /** How the client id and secret go to the token endpoint. */
    public ClientAuthentication clientAuthentication() {
        return clientAuthentication;
    }

    public AuthorizationMode authorizationMode() {
        return authorizationMode;
    }

    public Duration backoffInitialDelay() {
        return backoffInitialDelay;
    }

    public int backoffMaxRetries() {
        return backoffMaxRetries;
    }

    public Duration backoffMaxDelay() {
        return backoffMaxDelay;
    }

    /** Whether new calls wait at one gate while the API's global rate limit holds. */
    public boolean throttleGateEnabled() {
        return throttleGateEnabled;
    }

    /** Rate-limit resends allowed, as a share of the calls of the last ten seconds. */
    public double retryBudgetRatio() {
        return retryBudgetRatio;
    }

    /** Rate-limit resends always allowed per second. */
    public int retryBudgetMinPerSecond() {
        return retryBudgetMinPerSecond;
    }

    /** The longest request body recorded as it is sent so that it can be resent; 0 when none is. */
    public long maxRecordedBody() {
        return maxRecordedBody;
    }

    /**
     * How long an error's first bytes are waited for when only its body can tell an invalid token: the app
     * gets the response's head no later than this after it arrived, however slowly the body comes.
     */
    public Duration maxErrorBodyWait() {
        return maxErrorBodyWait;
    }

    public Duration tokenTimeout() {
        return tokenTimeout;
    }

    /**
     * Whether the agent manages the client named {@code client} ({@code apiwarden.instrumentation.<client>.enabled}).
     *
     * @throws IllegalArgumentException when the configuration was not read with that client's name
     */
    public boolean clientEnabled(String client) {
        Boolean enabled = clientsEnabled.get(client);
        if (enabled == null) {
            throw new IllegalArgumentException("the configuration was read without the switch of the client " + client);
        }
        return enabled;
    }

    /** Whether an API call through a client the agent does not manage is named in a warning. */
    public boolean unmanagedWarningsEnabled() {
        return unmanagedWarningsEnabled;
    }

    public boolean tracingEnabled() {
        return tracingEnabled;
    }

    public boolean metricsEnabled() {
        return metricsEnabled;
    }

    /** The port of the Prometheus endpoint, or empty when there is none. */
    public Optional<Integer> prometheusPort() {
        return Optional.ofNullable(prometheusPort);
    }

    public String prometheusHost() {
        return prometheusHost;
    }

    /** Response headers that may carry a request ID, in the order they are tried. */
    public List<String> requestIdHeaders() {
        return requestIdHeaders;
    }

    /** The header to send a generated request ID in, or empty. */
    public Optional<String> requestIdHeader() {
        return Optional.ofNullable(requestIdHeader);
    }

    /** The Redis store the JVMs of this OAuth client share, when {@code apiwarden.store} names one. */
    public Optional<RedisStoreSettings> redisStore() {
        return Optional.ofNullable(redisStore);
    }

    /** How long one operation on a token store (the Redis one, or the refresh-token file's lock) may take. */
    public Duration storeTimeout() {
        return storeTimeout;
    }

    /** Settings that work but deserve a look (cleartext HTTP to another host, an unwritable token folder). */
    public List<String> warnings() {
        return warnings;
    }

    /** Describes the configuration with every secret replaced by whether it is set. */
    @Override
    public String toString() {
        return "WardenConfig{base-url=" + scope.baseUrl()
                + ", token-url=" + tokenUrl
                + ", grant=" + grant.type()
                + (grant.scope() == null ? "" : ", scope=" + grant.scope())
                + ", access-token=" + (accessToken == null ? "<none>" : "<set>")
                + ", refresh-token=" + (refreshToken == null ? "<none>" : "<set>")
                + ", refresh-token-file=" + refreshTokenFile
                + ", store="
                + (redisStore != null ? redisStore.describe() : refreshTokenFile != null ? "file" : "memory")
                + ", client-id=" + clientId
                + ", client-secret=" + (clientSecret == null ? "<none>" : "<set>")
                + (clientId == null ? "" : ", client-auth=" + clientAuthentication.configValue())
                + ", authorization="
                + authorizationMode.name().toLowerCase(Locale.ROOT).replace('_', '-')
                + ", backoff=" + Durations.format(backoffInitialDelay) + " x2 up to " + backoffMaxRetries
                + " retries, max " + Durations.format(backoffMaxDelay)
                + ", throttle-gate=" + throttleGateEnabled + ", retry-budget=" + Math.round(retryBudgetRatio * 100)
                + "% min "
                + retryBudgetMinPerSecond + "/s"
                + ", max-recorded-body=" + Sizes.format(maxRecordedBody)
                + ", classify-max-body-wait=" + Durations.format(maxErrorBodyWait)
                + ", clients=" + new TreeMap<>(clientsEnabled)
                + ", unmanaged-warnings=" + unmanagedWarningsEnabled + "}";
    }

    /** Reads and checks each property, collecting every problem rather than stopping at the first. */
    private static final class Reader {
        private final Function<String, String> systemProperties;
        private final Map<String, String> environment;
        final List<String> problems = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        /** Secrets that were set but unusable: their absence is already reported. */
        private final Set<ConfigProperty> unusableSecrets = EnumSet.noneOf(ConfigProperty.class);

        boolean enabled;
        ApiScope scope;
        URI tokenUrl;
        String accessToken;
        String refreshToken;
        Path refreshTokenFile;
        String clientId;
        String clientSecret;
        Grant grant;
        ClientAuthentication clientAuthentication;
        AuthorizationMode authorizationMode;
        Duration backoffInitialDelay;
        int backoffMaxRetries;
        Duration backoffMaxDelay;
        boolean throttleGateEnabled;
        double retryBudgetRatio;
        int retryBudgetMinPerSecond;
        long maxRecordedBody;
        Duration maxErrorBodyWait;
        Duration tokenTimeout;
        final Map<String, Boolean> clientsEnabled = new TreeMap<>();
        boolean unmanagedWarningsEnabled;
        boolean tracingEnabled;
        boolean metricsEnabled;
        Integer prometheusPort;
        String prometheusHost;
        List<String> requestIdHeaders;
        String requestIdHeader;
        RedisStoreSettings redisStore;
        Duration storeTimeout;

        Reader(Function<String, String> systemProperties, Map<String, String> environment) {
            this.systemProperties = systemProperties;
            this.environment = environment;
        }

        void read() {
            enabled = bool(ConfigProperty.ENABLED);
            scope = baseUrl();
            tokenUrl = tokenUrl();
            accessToken = secret(ConfigProperty.ACCESS_TOKEN, ConfigProperty.ACCESS_TOKEN_FILE);
            refreshToken = secret(ConfigProperty.REFRESH_TOKEN, ConfigProperty.REFRESH_TOKEN_FILE);
            String file = raw(ConfigProperty.REFRESH_TOKEN_FILE);
            refreshTokenFile = file == null ? null : Paths.get(file);
            clientId = raw(ConfigProperty.CLIENT_ID);
            clientSecret = secret(ConfigProperty.CLIENT_SECRET, ConfigProperty.CLIENT_SECRET_FILE);
            grant = grant(scope());
            clientAuthentication = clientAuthentication();
            authorizationMode = authorizationMode();
            backoffInitialDelay = positiveDuration(ConfigProperty.BACKOFF_INITIAL_DELAY);
            backoffMaxRetries = maxRetries();
            backoffMaxDelay = positiveDuration(ConfigProperty.BACKOFF_MAX_DELAY);
            maxRecordedBody = maxRecordedBody();
            maxErrorBodyWait = positiveDuration(ConfigProperty.CLASSIFY_MAX_BODY_WAIT);
            tokenTimeout = positiveDuration(ConfigProperty.TOKEN_TIMEOUT);
            throttleGateEnabled = bool(ConfigProperty.THROTTLE_GATE_ENABLED);
            retryBudgetRatio = ratio(ConfigProperty.RETRY_BUDGET_RATIO);
            retryBudgetMinPerSecond = integer(ConfigProperty.RETRY_BUDGET_MIN_PER_SECOND, 0, 1000);
            unmanagedWarningsEnabled = bool(ConfigProperty.UNMANAGED_WARNINGS_ENABLED);
            tracingEnabled = bool(ConfigProperty.TRACING_ENABLED);
            metricsEnabled = bool(ConfigProperty.METRICS_ENABLED);
            prometheusPort = port(ConfigProperty.PROMETHEUS_PORT);
            prometheusHost = valueOrDefault(ConfigProperty.PROMETHEUS_HOST);
            requestIdHeaders =
                    headerNames(ConfigProperty.REQUEST_ID_HEADERS, valueOrDefault(ConfigProperty.REQUEST_ID_HEADERS));
            String generated = raw(ConfigProperty.REQUEST_ID_HEADER);
            requestIdHeader = generated == null
                    ? null
                    : headerNames(ConfigProperty.REQUEST_ID_HEADER, generated).stream()
                            .findFirst()
                            .orElse(null);
            checkTokensFitTogether();
            readStore();
            if (backoffInitialDelay.compareTo(backoffMaxDelay) > 0) {
                problems.add(where(ConfigProperty.BACKOFF_MAX_DELAY) + " is shorter than "
                        + ConfigProperty.BACKOFF_INITIAL_DELAY.key() + ": make it at least as long");
            }
            warnAboutCleartext(ConfigProperty.BASE_URL, scope == null ? null : scope.baseUrl());
            warnAboutCleartext(ConfigProperty.TOKEN_URL, tokenUrl);
            if (refreshTokenFile != null && refreshToken != null) {
                // Where a rotated token is written: beside the file a symbolic link points at.
                Path folder = realPath(refreshTokenFile).getParent();
                if (folder == null || !Files.isWritable(folder)) {
                    warnings.add("the folder of " + ConfigProperty.REFRESH_TOKEN_FILE.key() + " (" + folder
                            + ") is not writable: a rotated refresh token will be kept in memory only");
                }
                String exposure = SecretFile.exposure(refreshTokenFile);
                if (exposure != null) {
                    warnings.add(ConfigProperty.REFRESH_TOKEN_FILE.key() + " " + exposure
                            + ": whoever can read or replace the refresh token can act as this app");
                }
            }
        }

        private static Path realPath(Path file) {
            try {
                return file.toRealPath();
            } catch (IOException | RuntimeException e) {
                return file.toAbsolutePath();
            }
        }

        /**
         * {@code apiwarden.store}: a Redis URL, read by the store's own settings (whose classes
         * load no Redis client); anything else is a problem. The store's time-out serves the
         * refresh-token file's lock too.
         */
        private void readStore() {
            String store = raw(ConfigProperty.STORE);
            if (store == null) {
                // The default path never loads the Redis store's classes, its settings included.
                storeTimeout = positiveDuration(ConfigProperty.STORE_TIMEOUT);
                return;
            }
            RedisStoreSettings.Parsed parsed = RedisStoreSettings.parse(this::raw);
            if (!RedisStoreSettings.isRedisUrl(store)) {
                problems.add(where(ConfigProperty.STORE)
                        + " is not a Redis URL: write redis://host:port or rediss://host:port"
                        + " (the refresh-token file needs no setting), or unset it");
                return;
            }
            problems.addAll(parsed.problems());
            warnings.addAll(parsed.warnings());
            redisStore = parsed.settings();
            storeTimeout = redisStore != null ? redisStore.timeout() : positiveDuration(ConfigProperty.STORE_TIMEOUT);
            if (redisStore != null && tokenUrl == null && raw(ConfigProperty.STORE_KEY) == null) {
                problems.add(where(ConfigProperty.STORE)
                        + " is set but there is no token endpoint to name the shared state after:" + " set "
                        + ConfigProperty.AUTH_URL.key() + " or " + ConfigProperty.STORE_KEY.key());
            }
        }

        private String raw(String key) {
            for (ConfigProperty p : ConfigProperty.values()) {
                if (p.key().equals(key)) {
                    return raw(p);
                }
            }
            String value = systemProperties.apply(key);
            return value == null || value.trim().isEmpty() ? null : value.trim();
        }

        private void warnAboutCleartext(ConfigProperty p, URI url) {
            if (url != null && url.getScheme().equalsIgnoreCase("http") && !isLoopback(url.getHost())) {
                warnings.add(p.key() + " is plain http to " + url.getHost()
                        + ": tokens would cross the network unencrypted; use https");
            }
        }

        private static boolean isLoopback(String host) {
            String h = host.toLowerCase(Locale.ROOT);
            return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]") || h.equals("::1");
        }

        /** The value as set, trimmed, or null when it is unset or blank. */
        String raw(ConfigProperty p) {
            String value = systemProperties.apply(p.key());
            if (value == null) {
                value = environment.get(p.envName());
            }
            if (value == null || value.trim().isEmpty()) {
                return null;
            }
            return value.trim();
        }

        private String valueOrDefault(ConfigProperty p) {
            String value = raw(p);
            return value == null ? p.defaultValue() : value;
        }

        private String where(ConfigProperty p) {
            return p.key() + " (or " + p.envName() + ")";
        }

        private double ratio(ConfigProperty p) {
            String value = valueOrDefault(p);
            try {
                double d = Double.parseDouble(value);
                if (d >= 0 && d <= 1) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            problems.add(where(p) + " is '" + value + "': set it to a number from 0 to 1, e.g. 0.2");
            return Double.parseDouble(p.defaultValue());
        }

        private int integer(ConfigProperty p, int min, int max) {
            String value = valueOrDefault(p);
            try {
                int i = Integer.parseInt(value);
                if (i >= min && i <= max) {
                    return i;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            problems.add(where(p) + " is '" + value + "': set it to a whole number from " + min + " to " + max);
            return Integer.parseInt(p.defaultValue());
        }

        private boolean bool(ConfigProperty p) {
            return bool(valueOrDefault(p), where(p), p.defaultValue());
        }

        /** {@code apiwarden.instrumentation.<client>.enabled}, or its environment variable. */
        boolean clientSwitch(String client) {
            ConfigProperty p = ConfigProperty.CLIENT_ENABLED;
            String value = systemProperties.apply(p.keyFor(client));
            if (value == null) {
                value = environment.get(p.envNameFor(client));
            }
            value = value == null || value.trim().isEmpty() ? p.defaultValue() : value.trim();
            return bool(value, p.keyFor(client) + " (or " + p.envNameFor(client) + ")", p.defaultValue());
        }

        private boolean bool(String value, String where, String defaultValue) {
            if (value.equalsIgnoreCase("true")) {
                return true;
            }
            if (value.equalsIgnoreCase("false")) {
                return false;
            }
            problems.add(where + " is '" + value + "': set it to true or false");
            return Boolean.parseBoolean(defaultValue);
        }

        private ApiScope baseUrl() {
            ConfigProperty p = ConfigProperty.BASE_URL;
            String value = raw(p);
            if (value == null) {
                problems.add(where(p) + " is required: set it to the API base, e.g. -D" + p.key()
                        + "=https://api.example.com/v1");
                return null;
            }
            URI uri = httpUrl(p, value);
            if (uri == null) {
                return null;
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                problems.add(where(p) + " has a query or fragment: give only scheme, host, port and path");
                return null;
            }
            return ApiScope.of(uri);
        }

        private URI tokenUrl() {
            String explicit = raw(ConfigProperty.TOKEN_URL);
            if (explicit != null) {
                return httpUrl(ConfigProperty.TOKEN_URL, explicit);
            }
            String auth = raw(ConfigProperty.AUTH_URL);
            if (auth == null) {
                return null;
            }
            URI base = httpUrl(ConfigProperty.AUTH_URL, auth);
            if (base == null) {
                return null;
            }
            if (base.getRawQuery() != null || base.getRawFragment() != null) {
                problems.add(where(ConfigProperty.AUTH_URL)
                        + " has a query or fragment, so {auth-url}/token would be wrong: "
                        + "give the base alone, or the whole endpoint as " + ConfigProperty.TOKEN_URL.key());
                return null;
            }
            String s = base.toString();
            return URI.create(s.endsWith("/") ? s + "token" : s + "/token");
        }

        private URI httpUrl(ConfigProperty p, String value) {
            URI uri;
            try {
                uri = new URI(value);
            } catch (URISyntaxException e) {
                problems.add(where(p) + " is not a valid URL (" + e.getReason()
                        + "): write it like https://host[:port]/path");
                return null;
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                problems.add(where(p) + " must be an http or https URL, like https://host[:port]/path");
                return null;
            }
            String port = Ports.text(uri.getRawAuthority());
            if (port != null && !Ports.isPort(port)) {
                problems.add(where(p) + " has port " + port + ": give a port from 1 to " + Ports.MAX
                        + ", or none for the scheme's default");
                return null;
            }
            if (uri.getHost() == null) {
                problems.add(where(p) + " has no host: write it like https://host[:port]/path");
                return null;
            }
            if (uri.getRawUserInfo() != null) {
                problems.add(where(p)
                        + " contains user information: credentials never go into a URL, use the token properties");
                return null;
            }
            return uri;
        }

        /** A secret from its property or from its file; never both, never with control characters. */
        private String secret(ConfigProperty valueProperty, ConfigProperty fileProperty) {
            String value = readSecret(valueProperty, fileProperty);
            if (value == null && (raw(valueProperty) != null || raw(fileProperty) != null)) {
                unusableSecrets.add(valueProperty);
            }
            return value;
        }

        private String readSecret(ConfigProperty valueProperty, ConfigProperty fileProperty) {
            String value = raw(valueProperty);
            String file = raw(fileProperty);
            if (value != null && file != null) {
                problems.add(
                        "both " + valueProperty.key() + " and " + fileProperty.key() + " are set: keep one of them");
                return null;
            }
            String source = valueProperty.key();
            if (file != null) {
                source = fileProperty.key() + " (" + file + ")";
                try {
                    value = SecretFile.read(Paths.get(file));
                } catch (SecretFile.Unusable e) {
                    problems.add(where(fileProperty) + " = " + file + " " + e.getMessage());
                    return null;
                } catch (IOException | RuntimeException e) {
                    problems.add("cannot read " + where(fileProperty) + " = " + file + " ("
                            + e.getClass().getSimpleName()
                            + "): check that the file exists and that this process may read it");
                    return null;
                }
                if (value.isEmpty()) {
                    problems.add(where(fileProperty) + " = " + file
                            + " is empty: put the token in it, or unset the property");
                    return null;
                }
            }
            String unfit = value == null ? null : unfitSecret(valueProperty, value);
            if (unfit != null) {
                problems.add(source + " " + unfit);
                return null;
            }
            return value;
        }

        /** {@code apiwarden.grant}; the RFC's spelling, or with hyphens as the other properties' values are written. */
        private Grant grant(String scope) {
            ConfigProperty p = ConfigProperty.GRANT;
            String value = valueOrDefault(p).toLowerCase(Locale.ROOT).replace('-', '_');
            if (value.equals("refresh_token")) {
                return Grant.refreshToken(scope);
            }
            if (value.equals("client_credentials")) {
                return Grant.clientCredentials(scope);
            }
            problems.add(where(p) + " is '" + value + "': set it to refresh_token or client_credentials");
            return Grant.refreshToken(scope);
        }

        private ClientAuthentication clientAuthentication() {
            ConfigProperty p = ConfigProperty.CLIENT_AUTH;
            String value = valueOrDefault(p).toLowerCase(Locale.ROOT);
            for (ClientAuthentication a : ClientAuthentication.values()) {
                if (a.configValue().equals(value)) {
                    return a;
                }
            }
            problems.add(where(p) + " is '" + value + "': set it to basic (HTTP Basic) or post (in the form)");
            return ClientAuthentication.BASIC;
        }

        /**
         * {@code apiwarden.scope}: scope tokens of RFC 6749 section 3.3 (printable ASCII but {@code "} and
         * a backslash), separated by spaces; runs of white space count as one.
         */
        private String scope() {
            ConfigProperty p = ConfigProperty.SCOPE;
            String value = raw(p);
            if (value == null) {
                return null;
            }
            String[] tokens = value.split("[ \t]+");
            for (String t : tokens) {
                if (!t.matches("[\\x21\\x23-\\x5B\\x5D-\\x7E]+")) {
                    problems.add(where(p)
                            + " holds a character a scope cannot have (quotes, backslashes, control or non-ASCII"
                            + " characters): give scope names separated by spaces, e.g. \"read write\"");
                    return null;
                }
            }
            return String.join(" ", tokens);
        }

        private AuthorizationMode authorizationMode() {
            ConfigProperty p = ConfigProperty.AUTHORIZATION;
            String value = valueOrDefault(p).toLowerCase(Locale.ROOT);
            if (value.equals("if-absent")) {
                return AuthorizationMode.IF_ABSENT;
            }
            if (value.equals("always")) {
                return AuthorizationMode.ALWAYS;
            }
            problems.add(where(p) + " is '" + value + "': set it to if-absent or always");
            return AuthorizationMode.IF_ABSENT;
        }

        private Duration positiveDuration(ConfigProperty p) {
            String value = valueOrDefault(p);
            try {
                Duration d = Durations.parse(value);
                if (d.isZero() || d.compareTo(MAX_DURATION) > 0) {
                    problems.add(where(p) + " is " + value + ": give a duration above zero and at most 24h, such as "
                            + p.defaultValue());
                    return Durations.parse(p.defaultValue());
                }
                return d;
            } catch (IllegalArgumentException e) {
                problems.add(where(p) + ": " + e.getMessage());
                return Durations.parse(p.defaultValue());
            }
        }

        private Integer port(ConfigProperty p) {
            String value = raw(p);
            if (value == null) {
                return null;
            }
            try {
                int n = Integer.parseInt(value);
                if (n >= 0 && n <= 65535) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(where(p) + " is '" + value + "': give a port from 1 to 65535 (0 picks a free one)");
            return null;
        }

        /** A comma-separated list of HTTP header names (RFC 9110 tokens). */
        private List<String> headerNames(ConfigProperty p, String value) {
            List<String> names = new ArrayList<>();
            for (String part : value.split(",")) {
                String name = part.trim();
                if (name.isEmpty()) {
                    continue;
                }
                if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                    problems.add(where(p) + " has '" + name + "', which is not a header name");
                    continue;
                }
                names.add(name);
            }
            return List.copyOf(names);
        }

        private long maxRecordedBody() {
            ConfigProperty p = ConfigProperty.RESEND_MAX_RECORDED_BODY;
            String value = valueOrDefault(p);
            try {
                long size = Sizes.parse(value);
                if (size <= MAX_RECORDED_BODY_LIMIT) {
                    return size;
                }
                problems.add(where(p) + " is " + value + ": give at most " + Sizes.format(MAX_RECORDED_BODY_LIMIT)
                        + " (each call holds what it records until it ends), or 0 to record none");
            } catch (IllegalArgumentException e) {
                problems.add(where(p) + ": " + e.getMessage());
            }
            return Sizes.parse(p.defaultValue());
        }

        private int maxRetries() {
            ConfigProperty p = ConfigProperty.BACKOFF_MAX_RETRIES;
            String value = valueOrDefault(p);
            try {
                int n = Integer.parseInt(value);
                if (n >= 0 && n <= MAX_RETRIES_LIMIT) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            problems.add(where(p) + " is '" + value + "': give a whole number from 0 to " + MAX_RETRIES_LIMIT);
            return Integer.parseInt(p.defaultValue());
        }

        /**
         * Why a configured secret cannot be used, or null. Tokens are held to RFC 6750's grammar
         * (and an access token to a header's length), as the tokens the token service issues are;
         * the client secret only needs to be printable, since it is form-encoded before it is sent.
         */
        private static String unfitSecret(ConfigProperty p, String value) {
            if (p == ConfigProperty.CLIENT_SECRET) {
                return TokenText.isValid(value)
                        ? null
                        : "contains spaces or control characters: set the bare secret, without quotes or line breaks";
            }
            String flaw = TokenText.flaw(value);
            if (flaw != null) {
                return flaw
                        + ", which an RFC 6750 bearer token cannot: set the bare token as the token service issued it ("
                        + TokenText.ALPHABET + "), without quotes or line breaks";
            }
            String tooLong = p == ConfigProperty.ACCESS_TOKEN ? TokenText.accessTokenFlaw(value) : null;
            return tooLong == null
                    ? null
                    : tooLong + ", so the agent would never send it: set one access token,"
                            + " or none to have the agent refresh before the first call";
        }

        private void checkTokensFitTogether() {
            if (clientSecret != null && clientId == null && !grant.type().equals("client_credentials")) {
                problems.add(ConfigProperty.CLIENT_SECRET.key() + " is set without " + where(ConfigProperty.CLIENT_ID)
                        + ": set the client id too");
            }
            if (clientId != null && !TokenText.isValid(clientId)) {
                problems.add(where(ConfigProperty.CLIENT_ID) + " contains spaces or control characters");
            }
            if (grant.type().equals("client_credentials")) {
                checkClientCredentials();
                return;
            }
            if (unusableSecrets.contains(ConfigProperty.REFRESH_TOKEN)
                    || unusableSecrets.contains(ConfigProperty.ACCESS_TOKEN)) {
                return;
            }
            if (accessToken == null && refreshToken == null) {
                problems.add("no token is configured: set " + ConfigProperty.REFRESH_TOKEN.key() + " (or "
                        + ConfigProperty.REFRESH_TOKEN_FILE.key() + ") and " + ConfigProperty.AUTH_URL.key()
                        + ", or at least " + ConfigProperty.ACCESS_TOKEN.key());
            } else if (refreshToken != null
                    && tokenUrl == null
                    && raw(ConfigProperty.AUTH_URL) == null
                    && raw(ConfigProperty.TOKEN_URL) == null) {
                problems.add(ConfigProperty.REFRESH_TOKEN.key() + " is set but there is no token endpoint: set "
                        + where(ConfigProperty.AUTH_URL) + " or " + ConfigProperty.TOKEN_URL.key());
            }
        }

        /**
         * The client-credentials grant needs the client's id and secret (RFC 6749 section 4.4: confidential
         * clients only) and a token endpoint; a refresh token would never be used, so one set is a mistake.
         */
        private void checkClientCredentials() {
            String grantIs = " (" + ConfigProperty.GRANT.key() + " is client_credentials)";
            if (clientId == null) {
                problems.add(where(ConfigProperty.CLIENT_ID)
                        + " is required for the client_credentials grant: set the client id"
                        + " the token service issued");
            }
            if (clientSecret == null && !unusableSecrets.contains(ConfigProperty.CLIENT_SECRET)) {
                problems.add(where(ConfigProperty.CLIENT_SECRET) + " (or " + ConfigProperty.CLIENT_SECRET_FILE.key()
                        + ") is required for the client_credentials grant: set the client secret");
            }
            if (tokenUrl == null && raw(ConfigProperty.AUTH_URL) == null && raw(ConfigProperty.TOKEN_URL) == null) {
                problems.add("there is no token endpoint for the client_credentials grant: set "
                        + where(ConfigProperty.AUTH_URL) + " or " + ConfigProperty.TOKEN_URL.key());
            }
            for (ConfigProperty p :
                    new ConfigProperty[] {ConfigProperty.REFRESH_TOKEN, ConfigProperty.REFRESH_TOKEN_FILE}) {
                if (raw(p) != null) {
                    problems.add(where(p) + " is set, but the client_credentials grant uses no refresh token" + grantIs
                            + ": unset it, or set " + ConfigProperty.GRANT.key() + "=refresh_token");
                }
            }
        }
    }
}
