package io.apiwarden.agent;

import io.apiwarden.clients.jdk.library.InternalClients;
import io.apiwarden.core.ApiRouter;
import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.time.DaemonThreads;
import io.apiwarden.telemetry.StartingTelemetry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/**
 * The JVM's APIs, each with its one {@link Warden} created on the first request to it so that start-up stays
 * cheap: every client, JDK or OkHttp, shares each API's token manager. {@link #router()} is the one routing point
 * of the client hooks.
 *
 * <p>No lambdas on the start-up path: each costs a class spun at run time (docs/benchmarks.md); nested classes here.
 */
public final class AgentRuntime {
    private static volatile AgentConfig config;
    private static volatile ApiRouter router;
    private static volatile Telemetry telemetry;

    private AgentRuntime() {}

    static void configure(AgentConfig c) {
        List<ApiRouter.Route> routes = new ArrayList<>();
        for (WardenConfig api : c.apis()) {
            ApiScope managed = api.scope();
            URI tokenUrl = api.tokenUrl().orElse(null);
            if (tokenUrl != null) {
                managed = managed.excluding(tokenUrl);
            }
            routes.add(new ApiRouter.Route(managed, new ApiStart(api)));
        }
        config = c;
        router = new ApiRouter(routes);
    }

    /**
     * Finds the Warden of the API each request belongs to, or null when the agent is not configured: cheap to get,
     * it starts an API's runtime only on the first request to that API.
     */
    public static Wardens router() {
        ApiRouter r = router;
        if (r == null) {
            // Not configured yet, or not at all: only then is there a start to wait for.
            AgentStart.await();
            r = router;
        }
        return r;
    }

    /**
     * Starts every API's runtime, once: called when the app first builds (or first calls through) a managed client,
     * the moment one API's runtime always started, so that each API's token and fleet window (its store and its
     * subscription to the fleet's rate-limit windows) are in place before the first call, not on it.
     */
    static void startApis() {
        AgentStart.await();
        ApiRouter r = router;
        if (r != null) {
            r.startAll();
        }
    }

    /** The first API's Warden, or null when the agent is not configured. A hook routes through {@link #router()}. */
    public static Warden warden() {
        AgentStart.await();
        ApiRouter r = router;
        AgentConfig c = config;
        return r == null ? null : r.forRequest(c.first().scope().baseUrl());
    }

    private static Warden start(WardenConfig api) {
        synchronized (AgentRuntime.class) {
            // Telemetry starts here, when the app builds its first managed client, not in premain (the SDK
            // sets up java.util.logging, which an app may still mean to replace), and on a thread of its own:
            // the app's thread does not wait for it, and the calls made meanwhile are replayed into it.
            // The threads made here (the token client's) inherit the context loader: make it the
            // system loader, not that of whichever app (a web app, say) got here first.
            Thread thread = Thread.currentThread();
            ClassLoader appLoader = thread.getContextClassLoader();
            thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
            try {
                if (telemetry == null) {
                    telemetry = StartingTelemetry.start(config.first(), Clock.systemUTC(), new Unwrapped<>());
                }
                return Warden.create(api, new TokenClients(api), telemetry.forApi(api.name()));
            } finally {
                thread.setContextClassLoader(appLoader);
            }
        }
    }

    private static volatile HttpClient tokenClient;

    /**
     * The token endpoints' own client: not managed, never follows redirects (a token must not be redirected). Its
     * connect time-out is the first API's token time-out: each request carries its own API's.
     */
    private static HttpClient tokenClient(WardenConfig api) {
        HttpClient c = tokenClient;
        if (c == null) {
            synchronized (AgentRuntime.class) {
                if (tokenClient == null) {
                    tokenClient = InternalClients.build(tokenClientBuilder(api));
                }
                c = tokenClient;
            }
        }
        return c;
    }

    /**
     * A token client that presents the API's client certificate ({@code tls_client_auth}): made for that API alone,
     * as the shared one, with the certificate's TLS set-up.
     */
    private static HttpClient certificateClient(WardenConfig api, SSLContext tls) {
        return InternalClients.build(tokenClientBuilder(api).sslContext(tls));
    }

    private static HttpClient.Builder tokenClientBuilder(WardenConfig api) {
        // Its work runs on threads named as the agent's, so that the last-resort watch of connections
        // (ConnectWatch) knows the token calls for the agent's own when the token URL shares the API's
        // host and port and the JDK client's module is off. As many as the JDK's own default (a cached
        // pool): one thread would hold every token request behind a continuation that blocks on it
        // (calls then waited at the rate-limit gate until their apps gave up).
        return HttpClient.newBuilder()
                .executor(Executors.newCachedThreadPool(new DaemonThreads("apiwarden-token")))
                .connectTimeout(api.tokenTimeout())
                .followRedirects(HttpClient.Redirect.NEVER);
    }

    /** Starts an API's runtime on the first request to it. */
    private static final class ApiStart implements Supplier<Warden> {
        private final WardenConfig api;

        ApiStart(WardenConfig api) {
            this.api = api;
        }

        @Override
        public Warden get() {
            return start(api);
        }
    }

    /** An API's token client: the shared one, or one of its own that presents the client certificate. */
    private static final class TokenClients implements Function<SSLContext, HttpClient> {
        private final WardenConfig api;

        TokenClients(WardenConfig api) {
            this.api = api;
        }

        @Override
        public HttpClient apply(SSLContext tls) {
            return tls == null ? tokenClient(api) : certificateClient(api, tls);
        }
    }

    /** Builds the telemetry's own clients (its exporters') unwrapped. */
    private static final class Unwrapped<T> implements Function<Supplier<T>, T> {
        @Override
        public T apply(Supplier<T> work) {
            return InternalClients.unwrapped(work);
        }
    }
}
