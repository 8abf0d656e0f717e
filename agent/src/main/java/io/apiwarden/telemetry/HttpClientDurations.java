package io.apiwarden.telemetry;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The stable semantic conventions' {@code http.client.request.duration}, beside the agent's own meters, so that
 * dashboards built for the OpenTelemetry Java agent read managed calls unchanged: one record per physical request
 * (each resend its own, as the OpenTelemetry agent records them), in seconds, with the conventions' bucket advice.
 *
 * <p>Every record has the same tag keys, as the Prometheus registry requires of one meter name: {@code error.type}
 * and {@code http.response.status_code} are empty when the conventions leave them out (no error; no response),
 * which Prometheus takes for a label that is not there.
 */
final class HttpClientDurations {
    static final String NAME = "http.client.request.duration";
    /** The conventions' explicit bucket boundaries advice for this histogram, in seconds. */
    private static final double[] BUCKET_SECONDS = {
        0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10
    };

    private static final Duration[] BUCKETS = buckets();

    private final MeterRegistry meters;
    private final Tags apiTags;
    private final Map<Key, Timer> timers = new ConcurrentHashMap<>();
    /** The timer of the last record, with its key: racy by design, as any timer found for a key is the right one. */
    private volatile Found lastFound;

    HttpClientDurations(MeterRegistry meters, Tags apiTags) {
        this.meters = meters;
        this.apiTags = apiTags;
    }

    private static Duration[] buckets() {
        Duration[] d = new Duration[BUCKET_SECONDS.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = Duration.ofNanos(Math.round(BUCKET_SECONDS[i] * 1e9));
        }
        return d;
    }

    /**
     * One request, answered with {@code status} (0: none) or failed with {@code failure} (null: answered).
     *
     * @param method the method as the spans name it ({@code _OTHER} outside the known ones)
     */
    void record(String method, String host, int port, int status, Throwable failure, long nanos) {
        Class<?> failureType = failure == null ? null : failure.getClass();
        Found last = lastFound;
        Timer timer;
        if (last != null && last.key.matches(method, host, port, status, failureType)) {
            // An app's calls mostly repeat the last one's method, server and status: found without a new key.
            timer = last.timer;
        } else {
            Key key = new Key(method, host, port, status, failureType);
            timer = timers.get(key);
            if (timer == null) {
                timer = timers.computeIfAbsent(key, this::register);
            }
            lastFound = new Found(key, timer);
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer register(Key k) {
        String errorType = k.failure != null ? k.failure.getName() : k.status >= 400 ? Integer.toString(k.status) : "";
        return Timer.builder(NAME)
                .description("Duration of HTTP client requests.")
                .serviceLevelObjectives(BUCKETS)
                .tag("http.request.method", k.method)
                .tag("http.response.status_code", k.status > 0 ? Integer.toString(k.status) : "")
                .tag("server.address", k.host)
                .tag("server.port", Integer.toString(k.port))
                .tag("error.type", errorType)
                .tags(apiTags)
                .register(meters);
    }

    /** A key and its timer. */
    private static final class Found {
        final Key key;
        final Timer timer;

        Found(Key key, Timer timer) {
            this.key = key;
            this.timer = timer;
        }
    }

    /** What tells one timer from another. */
    private static final class Key {
        final String method;
        final String host;
        final int port;
        final int status;
        final Class<?> failure;

        Key(String method, String host, int port, int status, Class<?> failure) {
            this.method = method;
            this.host = host == null ? "" : host;
            this.port = port;
            this.status = status;
            this.failure = failure;
        }

        boolean matches(String method, String host, int port, int status, Class<?> failure) {
            return this.port == port
                    && this.status == status
                    && this.failure == failure
                    && this.method.equals(method)
                    && this.host.equals(host == null ? "" : host);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key && ((Key) o).matches(method, host, port, status, failure);
        }

        @Override
        public int hashCode() {
            // By hand: Objects.hash would box and allocate on every call's lookup.
            int h = method.hashCode();
            h = 31 * h + host.hashCode();
            h = 31 * h + port;
            h = 31 * h + status;
            return 31 * h + (failure == null ? 0 : failure.hashCode());
        }
    }
}
