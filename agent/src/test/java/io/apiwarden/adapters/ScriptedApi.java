package io.apiwarden.adapters;

import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A server whose answers are scripted per path, for the adapter suite: each path answers its script
 * in order and then repeats the script's last answer; an unscripted path answers 200. Every request
 * is recorded with the time it arrived, by path, and a test can wait for requests to arrive.
 *
 * <p>{@code /arrivals?path=P} (outside any API) answers how many requests {@code P} has had, so that
 * an app in another JVM can wait for the server too. A token endpoint, when given, answers its path.
 */
public final class ScriptedApi extends Dispatcher {
    public static final String INVALID_TOKEN_BODY = "{\"message\":\"OAuth invalid token\"}";
    public static final String RATE_LIMIT_BODY = "{\"message\":\"API rate limit exceeded (global)\"}";

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final List<Arrival> arrivals = new ArrayList<>();
    private final String tokenPath;
    private final Dispatcher tokenEndpoint;

    /** Received, by path, with when it arrived ({@link System#nanoTime()}). */
    public record Arrival(String path, RecordedRequest request, long nanos) {
        public String authorization() {
            return request.getHeaders().get("Authorization");
        }

        public String body() {
            return request.getBody() == null ? "" : request.getBody().utf8();
        }
    }

    public ScriptedApi() {
        this(null, null);
    }

    /** With a token endpoint at {@code tokenPath}, whose requests are not recorded here. */
    public ScriptedApi(String tokenPath, Dispatcher tokenEndpoint) {
        this.tokenPath = tokenPath;
        this.tokenEndpoint = tokenEndpoint;
    }

    /** From now on, {@code path} answers these in order, then the last one again and again. */
    @SafeVarargs
    public final ScriptedApi script(String path, Supplier<MockResponse>... answers) {
        scripts.put(path, new Script(List.of(answers), 0));
        return this;
    }

    /**
     * {@code path} refuses every request for the global rate limit, with {@code Retry-After}, from its
     * first request until {@code window} has passed since; then answers 200.
     */
    public ScriptedApi rateLimitWindow(String path, Duration window) {
        scripts.put(path, new Script(null, window.toNanos()));
        return this;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        String path = request.getUrl().encodedPath();
        if (path.equals(tokenPath) && tokenEndpoint != null) {
            return tokenEndpoint.dispatch(request);
        }
        if (path.equals("/arrivals")) {
            return ok(Integer.toString(requests(request.getUrl().queryParameter("path")).size())).get();
        }
        long now = System.nanoTime();
        int before;
        synchronized (arrivals) {
            before = (int) arrivals.stream().filter(a -> a.path.equals(path)).count();
            arrivals.add(new Arrival(path, request, now));
            arrivals.notifyAll();
        }
        Script script = scripts.get(path);
        if (script == null) {
            return ok("ok " + path).get();
        }
        return script.answer(before, path, now);
    }

    /** The requests {@code path} has had, in order. */
    public List<Arrival> requests(String path) {
        synchronized (arrivals) {
            return arrivals.stream().filter(a -> a.path.equals(path)).toList();
        }
    }

    /** Every request recorded, in order. */
    public List<Arrival> all() {
        synchronized (arrivals) {
            return List.copyOf(arrivals);
        }
    }

    /** Waits until {@code path} has had {@code n} requests; false when it had not within {@code patience}. */
    public boolean awaitRequests(String path, int n, Duration patience) throws InterruptedException {
        long end = System.nanoTime() + patience.toNanos();
        synchronized (arrivals) {
            while (requests(path).size() < n) {
                long left = end - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(arrivals, left);
            }
            return true;
        }
    }

    public static Supplier<MockResponse> ok(String body) {
        return () -> new MockResponse.Builder().code(200).body(body).build();
    }

    /** The spec's "OAuth invalid token": a 401 that says so in its challenge and its body. */
    public static Supplier<MockResponse> invalidToken() {
        return () -> new MockResponse.Builder().code(401).addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                .addHeader("Content-Type", "application/json").body(INVALID_TOKEN_BODY).build();
    }

    /** The spec's "API rate limit exceeded (global)", with no {@code Retry-After}: the back-off is the agent's own. */
    public static Supplier<MockResponse> rateLimited() {
        return () -> new MockResponse.Builder().code(429).addHeader("Content-Type", "application/json")
                .body(RATE_LIMIT_BODY).build();
    }

    /** The global rate limit, asking for a wait of {@code seconds}. */
    public static Supplier<MockResponse> rateLimited(int seconds) {
        return () -> rateLimited().get().newBuilder().addHeader("Retry-After", Integer.toString(seconds)).build();
    }

    public static Supplier<MockResponse> redirect(int code, String location) {
        return () -> new MockResponse.Builder().code(code).addHeader("Location", location).build();
    }

    /** What one path answers. */
    private static final class Script {
        private final List<Supplier<MockResponse>> answers;
        private final long windowNanos;
        private volatile long windowStart = Long.MIN_VALUE;

        Script(List<Supplier<MockResponse>> answers, long windowNanos) {
            this.answers = answers;
            this.windowNanos = windowNanos;
        }

        MockResponse answer(int before, String path, long now) {
            if (answers != null) {
                return answers.get(Math.min(before, answers.size() - 1)).get();
            }
            synchronized (this) {
                if (windowStart == Long.MIN_VALUE) {
                    windowStart = now;
                }
            }
            long left = windowStart + windowNanos - now;
            if (left <= 0) {
                return ok("ok " + path).get();
            }
            return rateLimited((int) ((left + 999_999_999L) / 1_000_000_000L)).get();
        }
    }
}
