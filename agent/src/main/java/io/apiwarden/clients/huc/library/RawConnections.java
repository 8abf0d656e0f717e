package io.apiwarden.clients.huc.library;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.net.URLConnection;

/**
 * The JDK's own connections, which the agent opens for each attempt of a managed call (and for the
 * plain path): opened through the URL's own handler while the current thread says so, so that the
 * agent's hook in that handler hands them back untouched and no connection is ever managed twice.
 */
public final class RawConnections {
    private static final ThreadLocal<Boolean> OPENING = new ThreadLocal<>();

    private RawConnections() {}

    /** True while the current thread opens a connection the agent must leave alone. */
    public static boolean isOpening() {
        return OPENING.get() != null;
    }

    /** Opens the JDK's own connection to {@code url}, through {@code proxy} when not null. */
    static URLConnection open(URL url, Proxy proxy) throws IOException {
        OPENING.set(Boolean.TRUE);
        try {
            return proxy == null ? url.openConnection() : url.openConnection(proxy);
        } finally {
            OPENING.remove();
        }
    }

    /** {@link #open}, for a URL whose handler is known to give an {@code HttpURLConnection} (http, https). */
    static HttpURLConnection openHttp(URL url, Proxy proxy) throws IOException {
        URLConnection c = open(url, proxy);
        if (!(c instanceof HttpURLConnection)) {
            throw new IOException("the handler of " + url.getProtocol() + " URLs did not give an HttpURLConnection");
        }
        return (HttpURLConnection) c;
    }
}
