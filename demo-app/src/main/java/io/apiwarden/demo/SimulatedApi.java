package io.apiwarden.demo;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process stand-in for the OAuth 2.0-protected API of the specification, on 127.0.0.1 and an
 * ephemeral port.
 *
 * <p>A request to the API passes three layers, as it would in production:
 * <ol>
 *   <li>an edge proxy ({@link EdgeProxy}) that may answer 502 or 504 itself;
 *   <li>the global rate limit ({@link GlobalRateLimiter}) that answers 429 while throttling;
 *   <li>the API itself ({@link ApiHandler}): {@code HEAD /api/v1}, {@code GET /api/v1/user},
 *       {@code GET /api/v1/admin} (always 403: no token carries admin rights).
 * </ol>
 * The token service at {@code /auth/token} ({@link TokenHandler}) is a separate service in the spec,
 * so neither the proxy faults nor the rate limit apply to it.
 *
 * <p>All time comes from the injected {@link Clock}, so tests move time forward instead of sleeping.
 */
public final class SimulatedApi implements AutoCloseable {
    static final String API_PATH = "/api/v1";
    static final String AUTH_PATH = "/auth";
    /** Outside the API: a load balancer's health check, which an agent must leave alone. */
    static final String HEALTH_PATH = "/health";
    /**
     * Connections the kernel queues before the server accepts them. The JDK's default (50) drops a
     * burst of a thousand concurrent callers' connects, and each dropped one retries a second later.
     */
    private static final int ACCEPT_BACKLOG = 1024;

    private static final String HOST = "127.0.0.1";
    private static final byte[] HEALTH_BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    private final Settings settings;
    private final ApiCounters counters = new ApiCounters();
    private final TokenStore tokens;
    private final GlobalRateLimiter rateLimiter;
    private final EdgeProxy edge;
    private HttpServer server;
    private ExecutorService executor;

    /** A server that runs on the system clock. */
    public SimulatedApi(Settings settings) {
        this(settings, Clock.systemUTC());
    }

    /** A server whose token expiry and rate-limit windows follow {@code clock}. */
    public SimulatedApi(Settings settings, Clock clock) {
        this.settings = settings;
        this.tokens = new TokenStore(clock, settings.tokenLifetime());
        this.rateLimiter = new GlobalRateLimiter(
                clock, settings.rateLimit(), settings.rateLimitWindow(), settings.throttlePeriod());
        this.edge = new EdgeProxy(settings.proxyFailEvery(), settings.proxyFailureProbability());
    }

    /** Binds the port and starts serving; returns this for try-with-resources. */
    public synchronized SimulatedApi start() throws IOException {
        if (server != null) {
            throw new IllegalStateException("this SimulatedApi was already started; create a new one for another run");
        }
        // Without it the JDK server leaves Nagle's algorithm on, and with the client's delayed ACKs every
        // keep-alive call stalls ~50 ms. The server reads the property once, when its classes load.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        HttpServer s = HttpServer.create(new InetSocketAddress(HOST, 0), ACCEPT_BACKLOG);
        s.createContext(API_PATH, Exchanges.withRequestId(new ApiHandler(counters, edge, rateLimiter, tokens)));
        s.createContext(
                AUTH_PATH, Exchanges.withRequestId(new TokenHandler(counters, tokens, settings.tokenLifetime())));
        s.createContext(
                HEALTH_PATH,
                Exchanges.withRequestId(exchange -> Exchanges.send(exchange, 200, "text/plain", HEALTH_BODY)));
        s.createContext("/", Exchanges.withRequestId(Exchanges::sendNotFound));
        AtomicInteger threadNumber = new AtomicInteger();
        executor = Executors.newFixedThreadPool(settings.serverThreads(), task -> {
            Thread t = new Thread(task, "simulated-api-" + threadNumber.incrementAndGet());
            t.setDaemon(true); // a test or launcher that forgets close() can still exit
            return t;
        });
        s.setExecutor(executor);
        s.start();
        server = s;
        return this;
    }

    /** Stops serving at once; calls in flight are cut off. */
    @Override
    public synchronized void close() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    /** The API base, {@code http://127.0.0.1:{port}/api/v1}. */
    public URI baseUrl() {
        return url(API_PATH);
    }

    /** The token service base, {@code http://127.0.0.1:{port}/auth}; the token endpoint is {@code {authUrl}/token}. */
    public URI authUrl() {
        return url(AUTH_PATH);
    }

    /** A URL on the same server but outside the API, {@code http://127.0.0.1:{port}/health}: never managed. */
    public URI healthUrl() {
        return url(HEALTH_PATH);
    }

    /** The token endpoint, {@code {authUrl}/token}. */
    public URI tokenUrl() {
        return url(TokenHandler.TOKEN_PATH);
    }

    private URI url(String path) {
        return URI.create("http://" + HOST + ":" + port() + path);
    }

    public synchronized int port() {
        if (server == null) {
            throw new IllegalStateException("the SimulatedApi has no port yet: call start() first");
        }
        return server.getAddress().getPort();
    }

    /** The one refresh token that the token endpoint accepts now; it changes with every refresh. */
    public String currentRefreshToken() {
        return tokens.currentRefreshToken();
    }

    /**
     * An access token as an app would have kept from an earlier run: well formed, but expired, so
     * the API answers it with "OAuth invalid token".
     */
    public String staleAccessToken() {
        return tokens.staleAccessToken();
    }

    /**
     * Revokes the current refresh token: it gets {@code invalid_grant} from now on. A new one is
     * issued as if the user had signed in again, readable from {@link #currentRefreshToken()}.
     */
    public void revokeRefreshTokens() {
        tokens.revokeRefreshTokens();
    }

    /** Ends the validity of every access token issued so far: each is answered as expired. */
    public void expireAllAccessTokensNow() {
        tokens.expireAllAccessTokens();
    }

    /** Live counters of what the server saw and answered. */
    public ApiCounters counters() {
        return counters;
    }

    public Settings settings() {
        return settings;
    }

    /**
     * How the simulated API behaves. Immutable; build one with {@link #builder()}. The defaults are a
     * calm API without proxy faults; demos and tests shorten the times so they see them pass.
     */
    public static final class Settings {
        /** Long enough for a handful of calls, short enough that a demo sees a token expire. */
        public static final Duration DEFAULT_TOKEN_LIFETIME = Duration.ofSeconds(5);
        /** Requests the whole API accepts per window, from all callers together. */
        public static final int DEFAULT_RATE_LIMIT = 60;
        /** The fixed window the rate limit counts in. */
        public static final Duration DEFAULT_RATE_LIMIT_WINDOW = Duration.ofSeconds(60);
        /** How long everybody gets 429 once the limit was exceeded; a fresh window starts after it. */
        public static final Duration DEFAULT_THROTTLE_PERIOD = Duration.ofSeconds(10);
        /** Chance that the edge proxy fails a request by itself: off, so that nothing is random unless asked. */
        public static final double DEFAULT_PROXY_FAILURE_PROBABILITY = 0.0;
        /** Fail every k-th API request at the edge; 0 switches the deterministic faults off. */
        public static final int DEFAULT_PROXY_FAIL_EVERY = 0;
        /** Threads serving requests: enough for a burst of concurrent calls from one demo app. */
        public static final int DEFAULT_SERVER_THREADS = 4;

        private final Duration tokenLifetime;
        private final int rateLimit;
        private final Duration rateLimitWindow;
        private final Duration throttlePeriod;
        private final double proxyFailureProbability;
        private final int proxyFailEvery;
        private final int serverThreads;

        private Settings(Builder b) {
            this.tokenLifetime = b.tokenLifetime;
            this.rateLimit = b.rateLimit;
            this.rateLimitWindow = b.rateLimitWindow;
            this.throttlePeriod = b.throttlePeriod;
            this.proxyFailureProbability = b.proxyFailureProbability;
            this.proxyFailEvery = b.proxyFailEvery;
            this.serverThreads = b.serverThreads;
        }

        public static Builder builder() {
            return new Builder();
        }

        /** Validity of an access token; sent as whole seconds in {@code expires_in}. */
        public Duration tokenLifetime() {
            return tokenLifetime;
        }

        public int rateLimit() {
            return rateLimit;
        }

        public Duration rateLimitWindow() {
            return rateLimitWindow;
        }

        public Duration throttlePeriod() {
            return throttlePeriod;
        }

        public double proxyFailureProbability() {
            return proxyFailureProbability;
        }

        public int proxyFailEvery() {
            return proxyFailEvery;
        }

        public int serverThreads() {
            return serverThreads;
        }

        @Override
        public String toString() {
            boolean faults = proxyFailEvery > 0 || proxyFailureProbability > 0;
            return "token lifetime " + tokenLifetime.toMillis() + " ms, global limit " + rateLimit + " requests per "
                    + rateLimitWindow.toMillis() + " ms, throttle " + throttlePeriod.toMillis() + " ms, "
                    + (faults
                            ? "proxy faults every " + proxyFailEvery + "th request, probability "
                                    + proxyFailureProbability
                            : "no proxy faults");
        }

        /** Collects settings; {@link #build()} checks them all. */
        public static final class Builder {
            private Duration tokenLifetime = DEFAULT_TOKEN_LIFETIME;
            private int rateLimit = DEFAULT_RATE_LIMIT;
            private Duration rateLimitWindow = DEFAULT_RATE_LIMIT_WINDOW;
            private Duration throttlePeriod = DEFAULT_THROTTLE_PERIOD;
            private double proxyFailureProbability = DEFAULT_PROXY_FAILURE_PROBABILITY;
            private int proxyFailEvery = DEFAULT_PROXY_FAIL_EVERY;
            private int serverThreads = DEFAULT_SERVER_THREADS;

            private Builder() {}

            /** Validity of each access token; at least one second, as {@code expires_in} counts whole seconds. */
            public Builder tokenLifetime(Duration lifetime) {
                this.tokenLifetime = lifetime;
                return this;
            }

            /** At most {@code requests} API requests per fixed {@code window}, across all endpoints and callers. */
            public Builder rateLimit(int requests, Duration window) {
                this.rateLimit = requests;
                this.rateLimitWindow = window;
                return this;
            }

            /** How long every API request gets 429 after the limit was exceeded. */
            public Builder throttlePeriod(Duration period) {
                this.throttlePeriod = period;
                return this;
            }

            /** Chance from 0 to 1 that the edge proxy answers 502 or 504 instead of the API. */
            public Builder proxyFailureProbability(double probability) {
                this.proxyFailureProbability = probability;
                return this;
            }

            /** The edge proxy fails API requests number k, 2k, 3k, ... (502 and 504 in turn); 0 for never. */
            public Builder proxyFailEvery(int k) {
                this.proxyFailEvery = k;
                return this;
            }

            public Builder serverThreads(int threads) {
                this.serverThreads = threads;
                return this;
            }

            /** @throws IllegalArgumentException naming every setting that is out of range */
            public Settings build() {
                List<String> problems = new ArrayList<>();
                if (tokenLifetime == null || tokenLifetime.compareTo(Duration.ofSeconds(1)) < 0) {
                    problems.add(
                            "tokenLifetime must be at least 1 s (expires_in is whole seconds), was " + tokenLifetime);
                }
                if (rateLimit < 1) {
                    problems.add("rateLimit must allow at least 1 request per window, was " + rateLimit);
                }
                requirePositive(problems, "rateLimitWindow", rateLimitWindow);
                requirePositive(problems, "throttlePeriod", throttlePeriod);
                if (!(proxyFailureProbability >= 0.0 && proxyFailureProbability <= 1.0)) {
                    problems.add("proxyFailureProbability must be from 0 to 1, was " + proxyFailureProbability);
                }
                if (proxyFailEvery < 0) {
                    problems.add("proxyFailEvery must be 0 (off) or a positive k, was " + proxyFailEvery);
                }
                if (serverThreads < 1) {
                    problems.add("serverThreads must be at least 1, was " + serverThreads);
                }
                if (!problems.isEmpty()) {
                    throw new IllegalArgumentException("invalid SimulatedApi settings: " + String.join("; ", problems));
                }
                return new Settings(this);
            }

            private static void requirePositive(List<String> problems, String name, Duration value) {
                if (value == null || value.isZero() || value.isNegative()) {
                    problems.add(name + " must be positive, was " + value);
                }
            }
        }
    }
}
