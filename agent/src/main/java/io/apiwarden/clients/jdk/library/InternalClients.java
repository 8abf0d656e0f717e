package io.apiwarden.clients.jdk.library;

import java.net.http.HttpClient;

/**
 * Clients the agent builds for itself, which the agent's own hook must leave unwrapped: the
 * token endpoint's client and the non-redirecting twins of the app's clients.
 */
public final class InternalClients {
    private static final ThreadLocal<Boolean> BUILDING = new ThreadLocal<>();

    private InternalClients() {}

    /** True while the current thread builds an internal client. */
    public static boolean isBuilding() {
        return BUILDING.get() != null;
    }

    /** Builds a client that the agent does not wrap. */
    public static HttpClient build(HttpClient.Builder builder) {
        // Not through unwrapped(builder::build): the token client is built on a JVM's first call's way, where a method
        // reference's first use spins a class.
        BUILDING.set(Boolean.TRUE);
        try {
            return builder.build();
        } finally {
            BUILDING.remove();
        }
    }

    /** Runs {@code work}; every client it builds on this thread is left unwrapped (a library's own, say). */
    public static <T> T unwrapped(java.util.function.Supplier<T> work) {
        BUILDING.set(Boolean.TRUE);
        try {
            return work.get();
        } finally {
            BUILDING.remove();
        }
    }

    /**
     * A client like {@code app} in every setting a client exposes, but that never follows
     * redirects. It shares the app's executor, cookie handler, proxy, authenticator and TLS set-up;
     * it has its own connection pool. Builder settings that a client does not expose (HTTP/2
     * priority, local address) keep their defaults.
     */
    static HttpClient noRedirectCopyOf(HttpClient app) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(app.version())
                .sslContext(app.sslContext())
                .sslParameters(app.sslParameters());
        app.cookieHandler().ifPresent(b::cookieHandler);
        app.connectTimeout().ifPresent(b::connectTimeout);
        app.proxy().ifPresent(b::proxy);
        app.authenticator().ifPresent(b::authenticator);
        app.executor().ifPresent(b::executor);
        return build(b);
    }
}
