package io.apiwarden.core;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.call.ResendPolicy;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.config.WardenConfig.AuthorizationMode;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.telemetry.jfr.JfrTelemetry;
import io.apiwarden.core.throttle.FleetWindow;
import io.apiwarden.core.throttle.RetryBudget;
import io.apiwarden.core.throttle.ThrottleGate;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.time.LazyThread;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.core.token.AccessTokenFile;
import io.apiwarden.core.token.ClientAuthenticator;
import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.core.token.RefreshTokenFile;
import io.apiwarden.core.token.SenderConstraint;
import io.apiwarden.core.token.TokenEndpoint;
import io.apiwarden.core.token.TokenManager;
import io.apiwarden.core.token.TokenSharing;
import io.apiwarden.core.token.store.FileTokenStore;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.core.token.store.redis.RedisThrottleWindow;
import io.apiwarden.core.token.store.redis.RedisTokenStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;
import javax.net.ssl.SSLContext;

/**
 * Everything a managed call to one API needs, wired once per JVM from that API's configuration: scope,
 * classifier, resend policy, token manager, throttle gate, clock and scheduler. Shared by every client; each
 * configured API has its own ({@link ApiRouter}).
 *
 * <p>No lambdas on the wiring path: each costs a class spun on the app's first call (docs/benchmarks.md).
 */
public final class Warden implements Wardens {
    private final WardenConfig config;
    private final ApiScope scope;
    private final ResponseClassifier classifier;
    /** DPoP, or null for bearer tokens. */
    private final SenderConstraint senderConstraint;

    private final ResendPolicy resendPolicy;
    private final TokenManager tokens;
    private final DelayScheduler scheduler;
    private final Clock clock;
    private final Telemetry telemetry;
    /** Null when {@code apiwarden.throttle.gate.enabled} is false. */
    private final ThrottleGate gate;

    private final FleetWindow fleetWindow;
    /** Names this API on each line when there are several. */
    private final ApiLog log;

    /**
     * Wires the parts.
     *
     * @param tokenEndpoint where refreshes go, or null when there is no token URL
     */
    public Warden(WardenConfig config, TokenEndpoint tokenEndpoint, DelayScheduler scheduler, Clock clock) {
        this(config, tokenEndpoint, scheduler, clock, Telemetry.NOOP);
    }

    /** Wires the parts, with spans and meters going to {@code telemetry}. */
    public Warden(
            WardenConfig config,
            TokenEndpoint tokenEndpoint,
            DelayScheduler scheduler,
            Clock clock,
            Telemetry telemetry) {
        this.config = config;
        // The one place every API's telemetry passes: its JFR events are added here, for library mode too.
        this.telemetry = JfrTelemetry.around(
                telemetry,
                config.name(),
                config.grant().type(),
                config.scope().baseUrl().getHost());
        this.log = ApiLog.of(config.name(), config.severalApis());
        String accessToken = config.accessToken().orElse(null);
        String refreshToken = config.refreshToken().orElse(null);
        String clientSecret = config.clientSecret().orElse(null);
        if (accessToken != null) {
            KnownSecrets.remember(accessToken);
        }
        if (refreshToken != null) {
            KnownSecrets.pin(refreshToken);
        }
        if (clientSecret != null) {
            KnownSecrets.pin(clientSecret);
        }
        URI tokenUrl = config.tokenUrl().orElse(null);
        this.scope = tokenUrl == null ? config.scope() : config.scope().excluding(tokenUrl);
        this.senderConstraint = SenderConstraints.of(config, tokenEndpoint, clock, log);
        this.classifier = new ResponseClassifier(senderConstraint == null ? null : senderConstraint::apiNonce);
        this.resendPolicy = new ResendPolicy(
                new BackoffPolicy(config.backoffInitialDelay(), config.backoffMaxRetries(), config.backoffMaxDelay()),
                clock,
                new RetryBudget(clock, config.retryBudgetRatio(), config.retryBudgetMinPerSecond()),
                log);
        this.gate = config.throttleGateEnabled() ? new ThrottleGate(clock, scheduler, config.backoffMaxDelay()) : null;
        this.fleetWindow = gate == null ? FleetWindow.NONE : fleetWindow(config, scheduler, gate, this.telemetry, log);
        Path refreshTokenFile = config.refreshTokenFile().orElse(null);
        this.tokens = new TokenManager(
                tokenEndpoint,
                accessToken,
                refreshToken,
                refreshTokenFile == null ? null : new RefreshTokenFile(refreshTokenFile),
                clock,
                new RefreshObservers(this.telemetry, tokenUrl, config.grant().type()),
                sharing(config, scheduler, clock, log),
                log);
        Path accessTokenFile = config.accessTokenFile().orElse(null);
        if (accessTokenFile != null) {
            followAccessTokenFile(config, accessTokenFile, clock);
        }
        this.scheduler = scheduler;
        this.clock = clock;
    }

    /** Has the token manager follow the file the first access token came from; a file that fails now is not followed. */
    private void followAccessTokenFile(WardenConfig config, Path file, Clock clock) {
        String property = ClientAuthenticators.key(config, ConfigProperty.ACCESS_TOKEN_FILE);
        try {
            tokens.following(new AccessTokenFile(
                    ReloadableSecret.open(
                            property, file, AccessTokenFile::tokenText, clock, config.secretsCheckInterval()),
                    config.accessToken().orElse(null)));
        } catch (IOException | RuntimeException e) {
            // The configuration read it a moment ago: it was changed meanwhile, and the token read then is used.
            log.warn(property + " changed since start-up and cannot be used (" + ClientAuthenticators.why(e)
                    + "); the token read at start-up is used and the file is not followed");
        }
    }

    /**
     * Who this JVM shares its token state with: the fleet, through Redis, when
     * {@code apiwarden.store} names one; the JVMs of this host that use the same refresh-token
     * file, when the refresh token comes from one; nobody otherwise.
     */
    private static TokenSharing sharing(WardenConfig config, DelayScheduler scheduler, Clock clock, ApiLog log) {
        if (config.redisStore().isPresent()) {
            try {
                // The Redis client's classes load here, and only here: an app without a Redis store never has them.
                TokenStore redis = new RedisTokenStore(
                        config.redisStore().get(),
                        config.tokenUrl().orElse(null),
                        config.clientId().orElse(null),
                        config.grant().storeIdentity());
                return TokenSharing.through(redis, scheduler, new LazyThread("apiwarden-token-store"));
            } catch (RuntimeException | LinkageError e) {
                log.error(
                        "the token store " + config.redisStore().get().describe() + " could not be set up;"
                                + " this JVM keeps its tokens to itself. Check apiwarden.store",
                        e);
                return TokenSharing.none(clock);
            }
        }
        if (config.refreshTokenFile().isPresent() && config.refreshToken().isPresent()) {
            return TokenSharing.through(
                    new FileTokenStore(config.refreshTokenFile().get(), config.storeTimeout(), clock),
                    scheduler,
                    new LazyThread("apiwarden-token-store"));
        }
        return TokenSharing.none(clock);
    }

    /**
     * The rate-limit window shared with the fleet through the Redis store, when there is one: the
     * gate closes for the windows other JVMs announce. Loaded, like the store, only when configured.
     */
    private static FleetWindow fleetWindow(
            WardenConfig config, DelayScheduler scheduler, ThrottleGate gate, Telemetry telemetry, ApiLog log) {
        if (config.redisStore().isEmpty()) {
            return FleetWindow.NONE;
        }
        try {
            RedisStoreSettings settings = config.redisStore().get();
            FleetWindow fleet = new RedisThrottleWindow(
                    settings,
                    settings.throttleKey(config.scope().baseUrl()),
                    new LazyThread("apiwarden-throttle-announce"),
                    scheduler,
                    log);
            fleet.listen(window -> {
                Duration closedFor = gate.heard(window);
                if (closedFor != null) {
                    telemetry.fleetWindowHeard(closedFor);
                }
            });
            return fleet;
        } catch (RuntimeException | LinkageError e) {
            log.error(
                    "the fleet's rate-limit window could not be set up in "
                            + config.redisStore().get().describe() + "; this JVM keeps its own",
                    e);
            return FleetWindow.NONE;
        }
    }

    /**
     * The production wiring: real time, and token requests over the client {@code tokenClient} gives for a TLS
     * set-up: the client's own (null) unless the client authenticates with a certificate, a client that the agent
     * does not manage in either case. It is asked once, on the first token request.
     */
    public static Warden create(
            WardenConfig config, Function<SSLContext, HttpClient> tokenClient, Telemetry telemetry) {
        DelayScheduler scheduler = new SystemDelayScheduler();
        Clock clock = Clock.systemUTC();
        URI url = config.tokenUrl().orElse(null);
        TokenEndpoint endpoint = null;
        if (url != null) {
            ClientAuthenticator authenticator = ClientAuthenticators.of(config, clock);
            endpoint = HttpTokenEndpoint.of(
                    url,
                    config.grant(),
                    authenticator,
                    config.tokenTimeout(),
                    new TokenClientOnce(tokenClient, authenticator),
                    scheduler,
                    clock);
        }
        return new Warden(config, endpoint, scheduler, clock, telemetry);
    }

    /** In library mode a Warden routes by itself: a request under its base is its own. */
    @Override
    public Warden forRequest(String scheme, String host, int port, String rawPath) {
        return scope.contains(scheme, host, port, rawPath) ? this : null;
    }

    @Override
    public boolean hasApiOn(String host) {
        return host != null && host.equalsIgnoreCase(scope.baseUrl().getHost());
    }

    /** The API's name: {@code default} for the unnamed properties' API. */
    public String name() {
        return config.name();
    }

    public WardenConfig config() {
        return config;
    }

    /** Which URLs are managed: the base URL, less the token endpoint. */
    public ApiScope scope() {
        return scope;
    }

    public ResponseClassifier classifier() {
        return classifier;
    }

    /** How the tokens are bound to a key of the agent's (DPoP); null for bearer tokens. */
    public SenderConstraint senderConstraint() {
        return senderConstraint;
    }

    public ResendPolicy resendPolicy() {
        return resendPolicy;
    }

    public TokenManager tokens() {
        return tokens;
    }

    public DelayScheduler scheduler() {
        return scheduler;
    }

    public Clock clock() {
        return clock;
    }

    /** The gate of the API's global rate limit, or null when it is switched off. */
    public ThrottleGate throttleGate() {
        return gate;
    }

    /** Where this JVM tells the fleet of the rate-limit windows it meets. */
    public FleetWindow fleetWindow() {
        return fleetWindow;
    }

    /** The agent's log for this API: its lines name the API when there are several. */
    public ApiLog log() {
        return log;
    }

    /** Where spans and meters of managed calls go. */
    public Telemetry telemetry() {
        return telemetry;
    }

    /** Whether the agent's token replaces an {@code Authorization} header the app set itself. */
    public boolean replacesAppAuthorization() {
        return config.authorizationMode() == AuthorizationMode.ALWAYS;
    }

    @Override
    public String toString() {
        return "Warden{" + config + "}";
    }
}
