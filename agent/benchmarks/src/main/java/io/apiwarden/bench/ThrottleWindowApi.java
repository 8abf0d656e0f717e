package io.apiwarden.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An API whose global rate limit holds for one fixed window: it opens with the first API request
 * and refuses every request until it ends ("API rate limit exceeded (global)", 429), then lets
 * everything through. It counts what reaches it during the window, which is what a client-side
 * gate is for: a limit that is already exceeded should hear as little as possible.
 */
final class ThrottleWindowApi implements AutoCloseable {
    /** How the API tells its clients about the window. */
    enum Mode {
        /** Each refusal says {@code Retry-After} (whole seconds left, rounded up). */
        RETRY_AFTER("429 with Retry-After"),
        /** Refusals say nothing but the error. */
        PLAIN("429 without Retry-After"),
        /**
         * The first request is answered, with {@code RateLimit: "global";r=0;t=W}: nothing is left
         * of the quota until the window ends. The refusals after it say {@code Retry-After}.
         */
        ANNOUNCED("announced ahead (RateLimit r=0)");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** Outside the API: says {@value #OPENED} once the window has opened. */
    static final String STATE_PATH = "/window-state";

    static final String OPENED = "opened";
    private static final byte[] REFUSAL =
            "{\"message\":\"API rate limit exceeded (global)\"}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] USER = "{\"id\":1,\"name\":\"window\"}".getBytes(StandardCharsets.UTF_8);

    private final Mode mode;
    private final long windowNanos;
    private final String expectedAuthorization;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(32);
    private final Object lock = new Object();
    private long opensNanos = Long.MIN_VALUE;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong duringWindow = new AtomicLong();
    private final AtomicLong unauthorized = new AtomicLong();

    private ThrottleWindowApi(Mode mode, Duration window, String accessToken) throws IOException {
        this.mode = mode;
        this.windowNanos = window.toNanos();
        this.expectedAuthorization = "Bearer " + accessToken;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.createContext("/api/v1", this::api);
        server.createContext("/health", exchange -> LoopbackApi.answer(exchange, 200, new byte[] {'o', 'k'}));
        server.createContext(STATE_PATH, exchange -> {
            boolean opened;
            synchronized (lock) {
                opened = opensNanos != Long.MIN_VALUE;
            }
            LoopbackApi.answer(exchange, 200, (opened ? OPENED : "not-opened").getBytes(StandardCharsets.UTF_8));
        });
        server.setExecutor(threads);
    }

    static ThrottleWindowApi start(Mode mode, Duration window, String accessToken) throws IOException {
        ThrottleWindowApi api = new ThrottleWindowApi(mode, window, accessToken);
        api.server.start();
        return api;
    }

    private void api(HttpExchange exchange) throws IOException {
        long now = System.nanoTime();
        requests.incrementAndGet();
        if (!expectedAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
            unauthorized.incrementAndGet();
            LoopbackApi.answer(exchange, 401, "{\"message\":\"OAuth invalid token\"}".getBytes(StandardCharsets.UTF_8));
            return;
        }
        boolean opening;
        long leftNanos;
        synchronized (lock) {
            opening = opensNanos == Long.MIN_VALUE;
            if (opening) {
                opensNanos = now;
            }
            leftNanos = opensNanos + windowNanos - now;
        }
        long leftSeconds = (leftNanos + 999_999_999L) / 1_000_000_000L;
        if (opening && mode == Mode.ANNOUNCED) {
            exchange.getResponseHeaders().set("RateLimit", "\"global\";r=0;t=" + leftSeconds);
            exchange.getResponseHeaders().set("RateLimit-Policy", "\"global\";q=1;w=" + leftSeconds);
            LoopbackApi.answer(exchange, 200, USER);
            return;
        }
        if (leftNanos > 0) {
            if (!opening) {
                duringWindow.incrementAndGet();
            }
            if (mode != Mode.PLAIN) {
                exchange.getResponseHeaders().set("Retry-After", Long.toString(leftSeconds));
            }
            LoopbackApi.answer(exchange, 429, REFUSAL);
            return;
        }
        LoopbackApi.answer(exchange, 200, USER);
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

    /** Every API request that reached the server. */
    long requests() {
        return requests.get();
    }

    /** API requests that arrived while the window held, the one that opened it not counted. */
    long requestsDuringWindow() {
        return duringWindow.get();
    }

    long unauthorized() {
        return unauthorized.get();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
