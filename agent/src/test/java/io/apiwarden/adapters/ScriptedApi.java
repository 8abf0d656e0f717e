package io.apiwarden.adapters;

import io.apiwarden.testing.Eventually;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A server whose answers are scripted per path, for the adapter suite: each path answers its script
 * in order and then repeats the script's last answer; an unscripted path answers 200. Every request
 * is recorded with the time it arrived, by path, and a test can wait for requests to arrive.
 *
 * <p>Arrivals are stamped on the time the agent's waits
 * are on (the test's own in library mode), so that the gaps between them say how long the agent waited.
 */
public final class ScriptedApi extends Dispatcher {
    public static final String INVALID_TOKEN_BODY = "{\"message\":\"OAuth invalid token\"}";
    public static final String RATE_LIMIT_BODY = "{\"message\":\"API rate limit exceeded (global)\"}";

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final List<Arrival> arrivals = new ArrayList<>();
    private final LongSupplier nanoTime;

    /** Received, by path, with when it arrived (on the server's time, in nanoseconds). */
    public record Arrival(String path, RecordedRequest request, long nanos) {
        public String authorization() {
            return request.getHeaders().get("Authorization");
        }

        public String body() {
            return request.getBody() == null ? "" : request.getBody().utf8();
        }
    }

    /** On real time. */
    public ScriptedApi() {
        this(System::nanoTime);
    }

    /** On {@code nanoTime}. */
    public ScriptedApi(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** From now on, {@code path} answers these in order, then the last one again and again. */
    // "varargs": List.of copies the array, which nothing writes into, so no heap pollution.
    @SafeVarargs
    @SuppressWarnings("varargs")
    public final ScriptedApi script(String path, Supplier<MockResponse>... answers) {
        scripts.put(path, new Script(List.of(answers), 0));
        return this;
    }

    /**
     * {@code path} refuses every request for the global rate limit, with no {@code Retry-After} (the
     * back-off is the agent's own), from its first request until {@code window} has passed since; then answers 200.
     */
    public ScriptedApi rateLimitWindow(String path, Duration window) {
        scripts.put(path, new Script(null, window.toNanos()));
        return this;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        String path = request.getUrl().encodedPath();
        long now = nanoTime.getAsLong();
        int before;
        synchronized (arrivals) {
            before = (int) arrivals.stream().filter(a -> a.path.equals(path)).count();
            arrivals.add(new Arrival(path, request, now));
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
    public boolean awaitRequests(String path, int n, Duration patience) {
        return Eventually.holdsWithin(patience, () -> requests(path).size() >= n);
    }

    public static Supplier<MockResponse> ok(String body) {
        return () -> new MockResponse.Builder().code(200).body(body).build();
    }

    /** The spec's "OAuth invalid token": a 401 that says so in its challenge and its body. */
    public static Supplier<MockResponse> invalidToken() {
        return () -> new MockResponse.Builder()
                .code(401)
                .addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                .addHeader("Content-Type", "application/json")
                .body(INVALID_TOKEN_BODY)
                .build();
    }

    /** The spec's "API rate limit exceeded (global)", with no {@code Retry-After}: the back-off is the agent's own. */
    public static Supplier<MockResponse> rateLimited() {
        return () -> new MockResponse.Builder()
                .code(429)
                .addHeader("Content-Type", "application/json")
                .body(RATE_LIMIT_BODY)
                .build();
    }

    /** The global rate limit, asking for a wait of {@code seconds}. */
    public static Supplier<MockResponse> rateLimited(int seconds) {
        return () -> rateLimited()
                .get()
                .newBuilder()
                .addHeader("Retry-After", Integer.toString(seconds))
                .build();
    }

    public static Supplier<MockResponse> redirect(int code, String location) {
        return () -> new MockResponse.Builder()
                .code(code)
                .addHeader("Location", location)
                .build();
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
            return rateLimited().get();
        }
    }
}
