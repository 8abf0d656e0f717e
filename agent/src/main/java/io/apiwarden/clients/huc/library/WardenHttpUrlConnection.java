package io.apiwarden.clients.huc.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.net.URLConnection;
import javax.net.ssl.HttpsURLConnection;

/**
 * Library mode for the JDK's {@code HttpURLConnection}: {@code WardenHttpUrlConnection.open(url, warden)} in
 * place of {@code url.openConnection()}. For a URL of the API the app gets a connection the agent manages
 * (an {@code HttpsURLConnection} for https), used exactly as the JDK's: the call is sent when the app first
 * asks for its response; for any other URL, the JDK's own connection.
 */
public final class WardenHttpUrlConnection {
    private WardenHttpUrlConnection() {}

    /** {@code url.openConnection()}, managed when {@code url} is the API's. */
    public static HttpURLConnection open(URL url, Warden warden) throws IOException {
        return open(url, null, warden);
    }

    /** {@code url.openConnection(proxy)}, managed when {@code url} is the API's; {@code proxy} null for none given. */
    public static HttpURLConnection open(URL url, Proxy proxy, Warden warden) throws IOException {
        if (url == null || warden == null) {
            throw new NullPointerException(url == null ? "url" : "warden");
        }
        URLConnection real = RawConnections.open(url, proxy);
        if (!(real instanceof HttpURLConnection)) {
            throw new IllegalArgumentException("WardenHttpUrlConnection opens http and https URLs; " + url.getProtocol()
                    + " URLs are opened with url.openConnection()");
        }
        return (HttpURLConnection) manage(real, url, proxy, warden);
    }

    /**
     * The connection to give the app for {@code real}, which the JDK's handler just made for {@code url}:
     * a managed one when it is an {@code HttpURLConnection} to the API, else {@code real} itself (and
     * {@code real} too when the agent fails). What the agent's hook calls.
     */
    public static URLConnection manage(URLConnection real, URL url, Proxy proxy, Warden warden) {
        if (!(real instanceof HttpURLConnection)
                || !warden.scope().contains(url.getProtocol(), url.getHost(), url.getPort(), url.getPath())) {
            return real;
        }
        URLConnection managed = EntryGuard.open(
                "huc-open",
                "an HttpURLConnection",
                () -> real instanceof HttpsURLConnection
                        ? new ManagedHttpsConnection(url, proxy, (HttpURLConnection) real, warden)
                        : new ManagedConnection(url, proxy, (HttpURLConnection) real, warden));
        return managed == null ? real : managed;
    }
}
