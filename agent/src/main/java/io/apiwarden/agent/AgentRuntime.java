package io.apiwarden.agent;

import io.apiwarden.clients.jdk.library.InternalClients;
import io.apiwarden.core.Warden;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.time.LazyThread;
import io.apiwarden.telemetry.TelemetryFactory;
import java.net.http.HttpClient;
import java.time.Clock;

/**
 * The one {@link Warden} of the JVM, created on first use so that start-up stays cheap: every
 * client, JDK or OkHttp, shares its token manager.
 */
public final class AgentRuntime {
    private static volatile WardenConfig config;
    private static volatile Warden warden;

    private AgentRuntime() {}

    static void configure(WardenConfig c) {
        config = c;
    }

    /**
     * The API's scope, or null when the agent is not configured: read without starting the runtime, for a
     * hook that sees many requests and must start it only for one to the API.
     */
    public static ApiScope scope() {
        WardenConfig c = config;
        return c == null ? null : c.scope();
    }

    /** The shared runtime, or null when the agent is not configured. */
    public static Warden warden() {
        Warden w = warden;
        if (w != null) {
            return w;
        }
        WardenConfig c = config;
        if (c == null) {
            return null;
        }
        synchronized (AgentRuntime.class) {
            if (warden == null) {
                // Telemetry comes up here, on the first call that needs the agent, not in premain:
                // the SDK's start costs more than the rest of the agent together.
                // The threads made here (exporter, timer) inherit the context loader: make it the
                // system loader, not that of whichever app (a web app, say) got here first.
                Thread thread = Thread.currentThread();
                ClassLoader appLoader = thread.getContextClassLoader();
                thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
                try {
                    Telemetry telemetry = TelemetryFactory.create(c, Clock.systemUTC(), InternalClients::unwrapped);
                    warden = Warden.create(c, AgentRuntime::tokenClient, telemetry);
                } finally {
                    thread.setContextClassLoader(appLoader);
                }
            }
            return warden;
        }
    }

    private static volatile HttpClient tokenClient;

    /** The token endpoint's own client: not managed, never follows redirects (a token must not be redirected). */
    private static HttpClient tokenClient() {
        HttpClient c = tokenClient;
        if (c == null) {
            synchronized (AgentRuntime.class) {
                if (tokenClient == null) {
                    // Its work runs on a thread named as the agent's, so that the last-resort watch of connections
                    // (ConnectWatch) knows the token calls for the agent's own when the token URL shares the API's
                    // host and port and the JDK client's module is off.
                    tokenClient = InternalClients.build(HttpClient.newBuilder()
                            .executor(new LazyThread("apiwarden-token"))
                            .connectTimeout(config.tokenTimeout())
                            .followRedirects(HttpClient.Redirect.NEVER));
                }
                c = tokenClient;
            }
        }
        return c;
    }
}
