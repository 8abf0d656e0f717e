package io.apiwarden.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The API of the Retry-After soak: a global rate limit that closes for {@code window} every
 * {@code period}, counted from the first API request, and refuses every API answer given while it is
 * closed with 429 and {@code Retry-After} (the whole seconds left of the window, rounded up).
 *
 * <p>Each API answer takes {@code latency}, and whether it is a refusal is decided when it is given, not
 * when the request came: so every request in flight when a window opens is refused, which is what
 * makes a soak of many resends possible with windows of whole seconds. Each app call names itself
 * ({@code ?call=N}); a request of a call that was refused before is a resend, and it is <em>early</em>
 * if it reached the server before the moment its last refusal's {@code Retry-After} allowed: that
 * refusal's time plus its seconds. A client that waited the seconds from the moment it read the
 * refusal is never early; one that counted them from when it sent the request is early by about
 * {@code latency}.
 */
final class RetryAfterSoakApi implements AutoCloseable {
    static final String STATE_PATH = "/soak-state";
    private static final byte[] REFUSAL =
            "{\"message\":\"API rate limit exceeded (global)\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] USER = "{\"id\":1,\"name\":\"soak\"}".getBytes(StandardCharsets.UTF_8);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final long windowNanos;
    private final long periodNanos;
    private final long latencyMillis;
    private final String expectedAuthorization;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();

    private final Object lock = new Object();
    private long firstRequestNanos = Long.MIN_VALUE;
    /** Call number to the {@link System#nanoTime()} its last refusal allowed it back at. */
    private final Map<Long, Long> allowedAt = new HashMap<>();

    private long requests;
    private long refusals;
    private long resends;
    private long earlyResends;
    /** The least time a resend came after the moment it was allowed; {@code Long.MAX_VALUE} before any. */
    private long leastMarginNanos = Long.MAX_VALUE;

    private long windowsMet;
    private long lastWindowMet = -1;
    private long unauthorized;
    private long unnamed;

    private RetryAfterSoakApi(Duration window, Duration period, Duration latency, String accessToken)
            throws IOException {
        if (window.compareTo(Duration.ofSeconds(1)) < 0 || period.compareTo(window) <= 0) {
            throw new IllegalArgumentException(
                    "a window of at least 1 s (Retry-After counts whole seconds) and a longer "
                            + "period are needed, not " + window + " every " + period);
        }
        this.windowNanos = window.toNanos();
        this.periodNanos = period.toNanos();
        this.latencyMillis = latency.toMillis();
        this.expectedAuthorization = "Bearer " + accessToken;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/api/v1", this::api);
        server.createContext("/health", exchange -> LoopbackApi.answer(exchange, 200, new byte[] {'o', 'k'}));
        server.createContext(
                STATE_PATH,
                exchange -> LoopbackApi.answer(
                        exchange, 200, Long.toString(resends()).getBytes(StandardCharsets.UTF_8)));
        server.setExecutor(threads);
    }

    static RetryAfterSoakApi start(Duration window, Duration period, Duration latency, String accessToken)
            throws IOException {
        RetryAfterSoakApi api = new RetryAfterSoakApi(window, period, latency, accessToken);
        api.server.start();
        return api;
    }

    private void api(HttpExchange exchange) throws IOException {
        long arrived = System.nanoTime();
        Long call = callNumber(exchange.getRequestURI().getRawQuery());
        boolean authorized =
                expectedAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"));
        synchronized (lock) {
            requests++;
            if (firstRequestNanos == Long.MIN_VALUE) {
                firstRequestNanos = arrived;
            }
            if (!authorized) {
                unauthorized++;
            }
            if (call == null) {
                unnamed++;
            } else {
                Long allowed = allowedAt.get(call);
                if (allowed != null) {
                    resends++;
                    long margin = arrived - allowed;
                    leastMarginNanos = Math.min(leastMarginNanos, margin);
                    if (margin < 0) {
                        earlyResends++;
                    }
                }
            }
        }
        if (!authorized) {
            LoopbackApi.answer(exchange, 401, "{\"message\":\"OAuth invalid token\"}".getBytes(StandardCharsets.UTF_8));
            return;
        }
        pause(latencyMillis);
        long answered = System.nanoTime();
        long retryAfterSeconds = 0;
        synchronized (lock) {
            long sinceFirst = answered - firstRequestNanos;
            long window = sinceFirst / periodNanos;
            // Window k holds from period × (k + 1) - window to period × (k + 1): the first opens after a quiet spell.
            long closesAt = (window + 1) * periodNanos;
            long left = closesAt - sinceFirst;
            if (left <= windowNanos) {
                retryAfterSeconds = (left + SECOND - 1) / SECOND;
                refusals++;
                if (window != lastWindowMet) {
                    lastWindowMet = window;
                    windowsMet++;
                }
                if (call != null) {
                    allowedAt.put(call, answered + retryAfterSeconds * SECOND);
                }
            }
        }
        if (retryAfterSeconds > 0) {
            exchange.getResponseHeaders().set("Retry-After", Long.toString(retryAfterSeconds));
            LoopbackApi.answer(exchange, 429, REFUSAL);
        } else {
            LoopbackApi.answer(exchange, 200, USER);
        }
    }

    /** {@code call=N} of the query, or null when it has none. */
    private static Long callNumber(String query) {
        if (query == null) {
            return null;
        }
        for (String pair : query.split("&")) {
            if (pair.startsWith("call=")) {
                try {
                    return Long.parseLong(pair.substring("call=".length()));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** The server's answer time: a thread of its own waits it out, as a busy backend's would. */
    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    URI baseUrl() {
        return LoopbackApi.url(server, "/api/v1");
    }

    URI healthUrl() {
        return LoopbackApi.url(server, "/health");
    }

    URI authUrl() {
        return LoopbackApi.url(server, "/auth");
    }

    long requests() {
        synchronized (lock) {
            return requests;
        }
    }

    long refusals() {
        synchronized (lock) {
            return refusals;
        }
    }

    /** Requests of calls that had been refused before. */
    long resends() {
        synchronized (lock) {
            return resends;
        }
    }

    /** Resends that came before their refusal's Retry-After allowed. */
    long earlyResends() {
        synchronized (lock) {
            return earlyResends;
        }
    }

    /** How soon after the allowed moment the promptest resend came, in ms; negative if early; NaN if none came. */
    double leastMarginMillis() {
        synchronized (lock) {
            return leastMarginNanos == Long.MAX_VALUE ? Double.NaN : leastMarginNanos / 1e6;
        }
    }

    /** Windows in which at least one answer was a refusal. */
    long windowsMet() {
        synchronized (lock) {
            return windowsMet;
        }
    }

    long unauthorized() {
        synchronized (lock) {
            return unauthorized;
        }
    }

    /** API requests without {@code ?call=N}: the soak's app names every call, so these mean a broken soak. */
    long unnamed() {
        synchronized (lock) {
            return unnamed;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
