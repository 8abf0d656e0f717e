package io.apiwarden.clients.huc.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.EntryGuard;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ProtocolException;
import java.net.Proxy;
import java.net.URL;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What a managed connection ({@link ManagedConnection}, {@link ManagedHttpsConnection}) does, shared by
 * the two: it holds what the app wrote, runs the call through the engine when the app first asks for the
 * response ({@link HucExchange}), and then answers from the JDK connection of the final attempt. When the
 * agent cannot manage the call (it fails before anything was sent, or a streamed body outgrows what may
 * be held), the call goes through one JDK connection with the app's settings, as without the agent.
 *
 * <p>The app's thread calls everything but {@link #disconnect}, which may come from another thread to
 * cancel the call: it reads and writes only volatile fields.
 */
final class ManagedRequest {
    private final HttpURLConnection app;
    private final Supplier<AppSettings> appSettings;
    private final URL url;
    private final Proxy proxy;
    private final Warden warden;
    /** The JDK's connection the handler made when the app opened the URL, unused until an attempt or the plain path takes it. */
    private HttpURLConnection spare;

    private AppSettings settings;
    private AppBody body;
    /** The connection the app's response-side calls go to: the final attempt's, or the plain path's. */
    private volatile HttpURLConnection answered;
    /** The response body with the bytes the agent read to classify it put back in front; null when it read none. */
    private InputStream peekedBody;

    private IOException failure;
    private boolean plain;

    /** Completes when the app disconnects: ends the call's waits. */
    final CompletableFuture<Void> disconnected = new CompletableFuture<>();
    /** The attempt on the wire, which a disconnect closes. */
    private volatile HttpURLConnection inFlight;

    /**
     * @param appSettings reads the settings of {@code app}, once, before it counts as connected
     */
    ManagedRequest(
            HttpURLConnection app,
            Supplier<AppSettings> appSettings,
            URL url,
            Proxy proxy,
            HttpURLConnection spare,
            Warden warden) {
        this.app = app;
        this.appSettings = appSettings;
        this.url = url;
        this.proxy = proxy;
        this.spare = spare;
        this.warden = warden;
    }

    /** The app's {@code connect()}: its settings are final from now on; nothing goes on the wire before the response is asked for. */
    synchronized void connect() {
        if (settings == null) {
            settings = appSettings.get();
        }
    }

    synchronized boolean connected() {
        return settings != null;
    }

    /** The app's {@code getOutputStream()}, with the JDK's checks. */
    synchronized OutputStream outputStream() throws IOException {
        if (answered != null && !plain || failure != null) {
            throw new ProtocolException("Cannot write output after reading input.");
        }
        if (body != null) {
            return body;
        }
        if (settings == null) {
            if (!app.getDoOutput()) {
                throw new ProtocolException(
                        "cannot write to a URLConnection if doOutput=false - call setDoOutput(true)");
            }
            if ("GET".equals(app.getRequestMethod())) {
                // As the JDK does: a GET with a body is a POST.
                app.setRequestMethod("POST");
            }
        }
        connect();
        if ("TRACE".equals(settings.method)) {
            throw new ProtocolException("HTTP method TRACE doesn't support output");
        }
        body = new AppBody(settings.streams() ? heldLimit() : Long.MAX_VALUE, this::overflow);
        return body;
    }

    /** How much of a streamed body is held: what may be recorded for a resend, and never less than 1 MiB. */
    private long heldLimit() {
        return Math.max(warden.config().maxRecordedBody(), 1024L * 1024);
    }

    /** A streamed body outgrew what may be held: the call goes as without the agent, the body written as it comes. */
    private synchronized OutputStream overflow(byte[] held) throws IOException {
        AgentLog.once(
                AgentLog.Level.WARN,
                "huc-body-overflow",
                "an HttpURLConnection call to the API streams a body longer than "
                        + heldLimit()
                        + " bytes; such calls go out as without the agent (no token, no resend)",
                null);
        HttpURLConnection p = goPlain();
        OutputStream out = p.getOutputStream();
        out.write(held);
        return out;
    }

    /** Sends the call the first time the app asks for its response; the connection it answers from. */
    synchronized HttpURLConnection answer() throws IOException {
        if (answered != null) {
            return answered;
        }
        if (failure != null) {
            throw failure;
        }
        connect();
        byte[] bytes = body == null ? null : body.bytes();
        HucExchange call = EntryGuard.open(
                "huc-call",
                "an HttpURLConnection call",
                () -> new HucExchange(warden, this, settings, url, proxy, bytes));
        if (call == null) {
            HttpURLConnection p = goPlain();
            if (bytes != null) {
                try (OutputStream out = p.getOutputStream()) {
                    out.write(bytes);
                }
            }
            return p;
        }
        try {
            HucExchange.Answer a = call.run();
            peekedBody = a.peekedBody;
            answered = a.connection;
            return a.connection;
        } catch (IOException e) {
            failure = e;
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new InterruptedIOException("interrupted");
            throw failure;
        }
    }

    /** The connection the call goes through as without the agent, with the app's settings. */
    private HttpURLConnection goPlain() throws IOException {
        connect();
        HttpURLConnection p = take(url);
        settings.applyTo(p, settings.method, true, settings.doOutput, settings.followRedirects);
        plain = true;
        answered = p;
        if (disconnected.isDone()) {
            p.disconnect();
        }
        return p;
    }

    /**
     * A JDK connection to {@code target} for one attempt: the one the handler made when the app opened its
     * URL, while unused and to that URL, else a new one.
     */
    HttpURLConnection take(URL target) throws IOException {
        HttpURLConnection s = spare;
        spare = null;
        return s != null && target == url ? s : RawConnections.openHttp(target, proxy);
    }

    /** Whether the plain path answers: then the app's calls go to its connection as they are. */
    synchronized HttpURLConnection plainOrNull() {
        return plain ? answered : null;
    }

    /** The app's {@code getInputStream()}. */
    InputStream inputStream() throws IOException {
        HttpURLConnection c = answer();
        InputStream peeked = peeked();
        if (peeked != null && c.getResponseCode() < 400) {
            return peeked;
        }
        return c.getInputStream();
    }

    /** The app's {@code getErrorStream()}: null before the response, as the JDK's. */
    InputStream errorStream() {
        HttpURLConnection c = answered;
        if (c == null) {
            return null;
        }
        InputStream peeked = peeked();
        try {
            if (peeked != null && c.getResponseCode() >= 400) {
                return peeked;
            }
        } catch (IOException e) {
            return null;
        }
        return c.getErrorStream();
    }

    private synchronized InputStream peeked() {
        return peekedBody;
    }

    int responseCode() throws IOException {
        return answer().getResponseCode();
    }

    String responseMessage() throws IOException {
        return answer().getResponseMessage();
    }

    /** A header of the response; null when the call failed, as the JDK's. */
    String headerField(String name) {
        try {
            return answer().getHeaderField(name);
        } catch (IOException e) {
            return null;
        }
    }

    String headerField(int n) {
        try {
            return answer().getHeaderField(n);
        } catch (IOException e) {
            return null;
        }
    }

    String headerFieldKey(int n) {
        try {
            return answer().getHeaderFieldKey(n);
        } catch (IOException e) {
            return null;
        }
    }

    Map<String, List<String>> headerFields() {
        try {
            return answer().getHeaderFields();
        } catch (IOException e) {
            return Map.of();
        }
    }

    boolean usingProxy() {
        HttpURLConnection c = answered;
        return c != null && c.usingProxy();
    }

    /** The connection the response came on, for HTTPS's session getters; as the JDK's, none before it. */
    HttpURLConnection answeredOrThrow() {
        HttpURLConnection c = answered;
        if (c == null) {
            throw new IllegalStateException("connection not yet open");
        }
        return c;
    }

    /** The app's {@code disconnect()}: from any thread; ends a wait at once and closes the attempt on the wire. */
    void disconnect() {
        disconnected.complete(null);
        HttpURLConnection c = inFlight;
        if (c != null) {
            c.disconnect();
        }
        c = answered;
        if (c != null) {
            c.disconnect();
        }
    }

    /** The attempt now on the wire; closed at once when the app disconnected before it went. */
    void sending(HttpURLConnection attempt) {
        inFlight = attempt;
        if (disconnected.isDone()) {
            attempt.disconnect();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // What the app set, as the JDK's connection shows it.

    /** Request properties the JDK's connection never shows back, as they hold secrets. */
    private static final String[] SECRET_PROPERTIES = {"Authorization", "Proxy-Authorization"};

    private static boolean secret(String key) {
        for (String s : SECRET_PROPERTIES) {
            if (s.equalsIgnoreCase(key)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The app's {@code getRequestProperty}: never a secret; after connecting, from the settings read then
     * (the JDK's connection answers after connecting too).
     */
    synchronized String requestProperty(String key, java.util.function.UnaryOperator<String> beforeConnecting) {
        if (key == null || secret(key)) {
            return null;
        }
        if (settings == null) {
            return beforeConnecting.apply(key);
        }
        for (Map.Entry<String, List<String>> e : settings.properties.entrySet()) {
            if (e.getKey().equalsIgnoreCase(key) && !e.getValue().isEmpty()) {
                return e.getValue().get(0);
            }
        }
        return null;
    }

    /** The app's {@code getRequestProperties}, without the secrets. */
    static Map<String, List<String>> shown(Map<String, List<String>> properties) {
        Map<String, List<String>> shown = new java.util.LinkedHashMap<>(properties);
        shown.keySet().removeIf(k -> k != null && secret(k));
        return java.util.Collections.unmodifiableMap(shown);
    }

    private java.net.Authenticator authenticator;

    /** The app's {@code setAuthenticator}, with the JDK's checks. */
    synchronized void authenticator(java.net.Authenticator auth) {
        if (auth == null) {
            throw new NullPointerException("authenticator");
        }
        if (settings != null) {
            throw new IllegalStateException("Already connected");
        }
        if (authenticator != null) {
            throw new IllegalStateException("Authenticator already set");
        }
        authenticator = auth;
    }

    synchronized java.net.Authenticator authenticator() {
        return authenticator;
    }
}
