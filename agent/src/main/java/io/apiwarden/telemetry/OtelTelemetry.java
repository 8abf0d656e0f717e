package io.apiwarden.telemetry;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.ServerText;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.throttle.RateLimitHeaders;
import io.apiwarden.core.throttle.RateLimitReading;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Spans (OpenTelemetry, stable HTTP semantic conventions) and meters (Micrometer) for managed calls.
 *
 * <p>Each logical call is an INTERNAL span {@code apiwarden <method>}; under it, each physical
 * attempt is a CLIENT span with the HTTP attributes, and each token refresh a CLIENT span of its
 * own. Either half may be off: a null tracer records no spans, a null registry no meters.
 */
public final class OtelTelemetry implements Telemetry {
    static final String PREFIX = "apiwarden.";
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
    private static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<Long> RESEND_COUNT = AttributeKey.longKey("http.request.resend_count");
    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    private static final AttributeKey<String> PROTOCOL_VERSION = AttributeKey.stringKey("network.protocol.version");
    private static final AttributeKey<String> STATUS_CLASS = AttributeKey.stringKey(PREFIX + "status_class");
    private static final AttributeKey<String> VERDICT = AttributeKey.stringKey(PREFIX + "verdict");
    private static final AttributeKey<String> REQUEST_ID = AttributeKey.stringKey(PREFIX + "request_id");
    private static final AttributeKey<String> DIAGNOSIS = AttributeKey.stringKey(PREFIX + "diagnosis");
    private static final AttributeKey<String> HINT = AttributeKey.stringKey(PREFIX + "diagnosis.hint");
    private static final AttributeKey<Long> ATTEMPTS = AttributeKey.longKey(PREFIX + "attempts");
    private static final AttributeKey<Long> WAITED_MS = AttributeKey.longKey(PREFIX + "waited_ms");
    private static final AttributeKey<Long> GATE_WAITED_MS = AttributeKey.longKey(PREFIX + "gate.waited_ms");
    private static final AttributeKey<String> RATE_LIMIT_FAMILY = AttributeKey.stringKey(PREFIX + "ratelimit.headers");
    private static final AttributeKey<Long> RATE_LIMIT_LIMIT = AttributeKey.longKey(PREFIX + "ratelimit.limit");
    private static final AttributeKey<Long> RATE_LIMIT_REMAINING = AttributeKey.longKey(PREFIX + "ratelimit.remaining");
    private static final AttributeKey<Long> RATE_LIMIT_RESET_MS = AttributeKey.longKey(PREFIX + "ratelimit.reset_ms");
    private static final AttributeKey<Long> RATE_LIMIT_RETRY_AFTER_MS =
            AttributeKey.longKey(PREFIX + "ratelimit.retry_after_ms");
    /** Why a response the agent would have resent went to the app ({@code deadline}). */
    private static final AttributeKey<String> NOT_RESENT_REASON = AttributeKey.stringKey(PREFIX + "not_resent_reason");

    /** The API a call or refresh belongs to, when the agent names its APIs. */
    private static final AttributeKey<String> API = AttributeKey.stringKey(PREFIX + "api");
    /** How the call's token is sent: {@code Bearer}, or {@code DPoP} (sender-constrained). */
    private static final AttributeKey<String> TOKEN_SCHEME = AttributeKey.stringKey(PREFIX + "token.scheme");

    private static final AttributeKey<String> GRANT = AttributeKey.stringKey(PREFIX + "grant");
    private static final AttributeKey<String> REFRESH_RESULT = AttributeKey.stringKey(PREFIX + "token.refresh.result");
    /** Response headers that tell which component answered (spec section 7, rule 4). */
    private static final List<String> PROXY_HEADERS = List.of("server", "via", "x-cache");
    /** The span attribute of each proxy header, made once rather than on every response. */
    private static final List<AttributeKey<List<String>>> PROXY_HEADER_KEYS = List.of(
            AttributeKey.stringArrayKey("http.response.header.server"),
            AttributeKey.stringArrayKey("http.response.header.via"),
            AttributeKey.stringArrayKey("http.response.header.x-cache"));
    /** "0xx" to "5xx" by the status's first digit, so that no call builds the string. */
    private static final String[] STATUS_CLASSES = {"0xx", "1xx", "2xx", "3xx", "4xx", "5xx"};

    private final Tracer tracer;
    /** The API's name, or null when the telemetry is not one API's. */
    private final String api;

    private final Tags apiTags;
    private final MeterRegistry meters;
    private final List<String> requestIdHeaders;
    private final Clock clock;
    private volatile Instant throttledUntil = Instant.MIN;
    /** Meters by their tag values: registering looks a meter up by its whole id, once per call is too often. */
    private final Map<String, Map<String, Map<String, Timer>>> callTimers = new ConcurrentHashMap<>();

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    /** The semantic conventions' request histogram; null without meters. */
    private final HttpClientDurations requestDurations;

    private final Map<String, Timer> waitTimers = new ConcurrentHashMap<>();
    /** The methods of RFC 9110 and PATCH; anything else is "_OTHER" (semantic conventions), to bound cardinality. */
    private static final java.util.Set<String> KNOWN_METHODS =
            java.util.Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");
    /** The call span's name by method ({@code apiwarden GET}), made once rather than concatenated on every call. */
    private static final Map<String, String> CALL_SPAN_NAMES = callSpanNames();
    /** The first status a boxed code is kept for: span attributes take a {@code Long}, boxed per span otherwise. */
    private static final int FIRST_BOXED_STATUS = 100;
    /** {@code http.response.status_code} of every standard status (100-599), boxed once. */
    private static final Long[] BOXED_STATUSES = boxedStatuses();

    /**
     * @param tracer where spans go, or null for none
     * @param meters where meters go, or null for none
     */
    public OtelTelemetry(Tracer tracer, MeterRegistry meters, List<String> requestIdHeaders, Clock clock) {
        this(tracer, meters, requestIdHeaders, clock, null);
    }

    /**
     * As above, for the API named {@code api}: its spans carry {@code apiwarden.api} and its meters an {@code api}
     * tag (the configured names only, so the cardinality stays low).
     */
    public OtelTelemetry(Tracer tracer, MeterRegistry meters, List<String> requestIdHeaders, Clock clock, String api) {
        this(tracer, meters, requestIdHeaders, clock, api, true);
    }

    /**
     * As above; {@code requestDurations}: whether the semantic conventions' {@code http.client.request.duration} is
     * recorded. Its histogram loads ~100 classes at the first managed call, worth it only where the meters are
     * exported (Prometheus, OTLP), not in the in-process registry that stands in when nothing exports them.
     */
    public OtelTelemetry(
            Tracer tracer,
            MeterRegistry meters,
            List<String> requestIdHeaders,
            Clock clock,
            String api,
            boolean requestDurations) {
        this.api = api;
        this.apiTags = api == null ? Tags.empty() : Tags.of("api", api);
        this.tracer = tracer;
        this.meters = meters;
        this.requestIdHeaders = requestIdHeaders;
        this.clock = clock;
        this.requestDurations = meters == null || !requestDurations ? null : new HttpClientDurations(meters, apiTags);
        if (meters != null) {
            Gauge.builder(PREFIX + "throttled", this, new Throttled())
                    .description("1 while a global rate limit holds managed calls back, else 0")
                    .tags(apiTags)
                    .register(meters);
        }
    }

    /** The same sinks, for the API {@code name}: its own meters and gauge, tagged with its name. */
    @Override
    public Telemetry forApi(String name) {
        return name.equals(api)
                ? this
                : new OtelTelemetry(tracer, meters, requestIdHeaders, clock, name, requestDurations != null);
    }

    @Override
    public void fleetWindowHeard(Duration window) {
        throttledFor(window);
    }

    /** Keeps the {@code throttled} gauge at 1 for {@code window} from now, unless it already is for longer. */
    private void throttledFor(Duration window) {
        Instant until = clock.instant().plus(window);
        synchronized (this) {
            if (until.isAfter(throttledUntil)) {
                throttledUntil = until;
            }
        }
    }

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        return new Call(KNOWN_METHODS.contains(method) ? method : "_OTHER", UrlRedaction.redact(url), host, port);
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl) {
        return refresh(tokenUrl, null);
    }

    /** @param grant names the grant on the span and the {@code token.refreshes} counter ({@code unknown}: null) */
    @Override
    public RefreshObserver refresh(URI tokenUrl, String grant) {
        String grantTag = grant == null ? "unknown" : grant;
        // Under the call that needed it, when one did; the refresh serves every waiting call, though.
        Context parent = Span.fromContext(Context.current()).getSpanContext().isValid()
                ? Context.current()
                : ReplayMoment.appParent();
        Span span = tracer == null
                ? Span.getInvalid()
                : tracer.spanBuilder("POST")
                        .setAttribute(API, api)
                        .setParent(parent)
                        .setSpanKind(SpanKind.CLIENT)
                        .setAttribute(METHOD, "POST")
                        .setAttribute(URL_FULL, UrlRedaction.redact(tokenUrl.toString()))
                        .setAttribute(SERVER_ADDRESS, tokenUrl.getHost())
                        .setAttribute(SERVER_PORT, (long) port(tokenUrl.getScheme(), tokenUrl.getPort()))
                        .setAttribute(AttributeKey.stringKey(PREFIX + "operation"), "token.refresh")
                        .setAttribute(GRANT, grant)
                        .startSpan();
        return new RefreshObserver() {
            @Override
            public void end(String result) {
                span.setAttribute(REFRESH_RESULT, result);
                if (!result.equals("success") && !result.equals("adopted")) {
                    span.setStatus(StatusCode.ERROR, "token refresh " + result);
                }
                span.end();
                if (meters != null) {
                    counters.computeIfAbsent("refresh|" + grantTag + "|" + result, k -> Counter.builder(
                                            PREFIX + "token.refreshes")
                                    .description("token refreshes, by grant and result")
                                    .tag("grant", grantTag)
                                    .tag("result", result)
                                    .tags(apiTags)
                                    .register(meters))
                            .increment();
                }
            }

            @Override
            public void event(String name) {
                span.addEvent(PREFIX + "token.store." + name);
                if (meters != null) {
                    counters.computeIfAbsent("store|" + name, k -> Counter.builder(PREFIX + "token.store.events")
                                    .description("what the shared token store did during refreshes, by event")
                                    .tag("event", name)
                                    .tags(apiTags)
                                    .register(meters))
                            .increment();
                }
            }
        };
    }

    private static Map<String, String> callSpanNames() {
        Map<String, String> names = new java.util.HashMap<>();
        for (String method : KNOWN_METHODS) {
            names.put(method, "apiwarden " + method);
        }
        names.put("_OTHER", "apiwarden _OTHER");
        return Map.copyOf(names);
    }

    private static Long[] boxedStatuses() {
        Long[] boxed = new Long[500];
        for (int i = 0; i < boxed.length; i++) {
            boxed[i] = (long) (FIRST_BOXED_STATUS + i);
        }
        return boxed;
    }

    /** The status as a span attribute's value: the standard ones from {@link #BOXED_STATUSES}, no box per span. */
    private static Long statusValue(int status) {
        int i = status - FIRST_BOXED_STATUS;
        return i >= 0 && i < BOXED_STATUSES.length ? BOXED_STATUSES[i] : Long.valueOf(status);
    }

    private static int port(String scheme, int port) {
        return port != -1 ? port : "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }

    private static String statusClass(int status) {
        int digit = status / 100;
        return status <= 0 ? "none" : digit < STATUS_CLASSES.length ? STATUS_CLASSES[digit] : digit + "xx";
    }

    /** One logical call: the INTERNAL span, and the meters recorded when it ends. */
    private final class Call implements CallObserver {
        private final String method;
        private final String url;
        private final String host;
        private final int port;
        /** {@code server.port} as both spans' attribute value: boxed once per call, not once per span. */
        private final Long serverPort;

        private final Span span;
        private final Context context;
        private final long startNanos = ReplayMoment.nanoTime();
        private int attempts;
        private long waitedMillis;
        private long gateWaitedMillis;

        Call(String method, String url, String host, int port) {
            this.method = method;
            this.url = url;
            this.host = host;
            this.port = port(url.startsWith("https") ? "https" : "http", port);
            this.serverPort = (long) this.port;
            this.span = tracer == null
                    ? Span.getInvalid()
                    : tracer.spanBuilder(CALL_SPAN_NAMES.get(method))
                            .setAttribute(API, api)
                            .setParent(ReplayMoment.appParent())
                            .setSpanKind(SpanKind.INTERNAL)
                            .setAttribute(METHOD, method)
                            .setAttribute(URL_FULL, url)
                            .setAttribute(SERVER_ADDRESS, host)
                            .setAttribute(SERVER_PORT, serverPort)
                            .setAttribute(TOKEN_SCHEME, "Bearer")
                            .startSpan();
            this.context = Context.root().with(span);
        }

        @Override
        public AttemptObserver attempt(boolean expectContinue) {
            return new Attempt(this, attempts++, expectContinue);
        }

        @Override
        public void tokenScheme(String scheme) {
            span.setAttribute(TOKEN_SCHEME, scheme);
        }

        // The OpenTelemetry scope is not left open here: it is handed to the caller inside the returned Scope,
        // which the caller closes (CallDriver, in try-with-resources).
        @SuppressWarnings("MustBeClosedChecker")
        @Override
        public Scope current() {
            io.opentelemetry.context.Scope scope = context.makeCurrent();
            return scope::close;
        }

        @Override
        public void gateClosed(java.time.Duration window) {
            throttledFor(window);
            span.addEvent(
                    PREFIX + "gate.closed",
                    Attributes.of(AttributeKey.longKey(PREFIX + "gate.window_ms"), window.toMillis()));
        }

        @Override
        public void gateWaited(java.time.Duration waited, boolean first) {
            long millis = waited.toMillis();
            gateWaitedMillis += millis;
            span.addEvent(
                    PREFIX + "gate",
                    Attributes.builder()
                            .put(PREFIX + "gate.waited_ms", millis)
                            .put(PREFIX + "gate.first", first)
                            .build());
            if (meters != null) {
                gateTimer().record(waited);
            }
        }

        @Override
        public void end(int status, Verdict verdict, Throwable failure) {
            span.setAttribute(ATTEMPTS, (long) attempts);
            span.setAttribute(WAITED_MS, waitedMillis);
            if (gateWaitedMillis > 0) {
                span.setAttribute(GATE_WAITED_MS, gateWaitedMillis);
            }
            if (failure != null) {
                span.setAttribute(ERROR_TYPE, failure.getClass().getName());
                span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
            } else {
                span.setAttribute(STATUS, statusValue(status));
                span.setAttribute(VERDICT, ResponseDiagnosis.label(verdict));
                if (status >= 400) {
                    span.setAttribute(ERROR_TYPE, Integer.toString(status));
                    span.setStatus(StatusCode.ERROR);
                }
            }
            span.end();
            if (meters != null) {
                String statusClass = failure != null ? "none" : statusClass(status);
                String label = failure != null ? "error" : ResponseDiagnosis.label(verdict);
                callTimer(method, statusClass, label)
                        .record(ReplayMoment.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    private volatile Timer gateTimer;

    /** Waits at the gate of the API's global rate limit: made on the first wait, which most JVMs never have. */
    private Timer gateTimer() {
        Timer t = gateTimer;
        if (t == null) {
            t = Timer.builder(PREFIX + "gate.waits")
                    .description("time calls waited at the gate of the API's global rate limit before being sent")
                    .tags(apiTags)
                    .register(meters);
            gateTimer = t;
        }
        return t;
    }

    /**
     * The timer of managed calls with these tags. Looked up by the tag values themselves, level by level,
     * so that the lookup of a known timer allocates nothing: it runs at the end of every call.
     */
    private Timer callTimer(String method, String statusClass, String verdict) {
        // get and putIfAbsent, not computeIfAbsent and lambdas: each lambda costs a class spun on the first call.
        Map<String, Map<String, Timer>> byStatus = callTimers.get(method);
        if (byStatus == null) {
            callTimers.putIfAbsent(method, new ConcurrentHashMap<>());
            byStatus = callTimers.get(method);
        }
        Map<String, Timer> byVerdict = byStatus.get(statusClass);
        if (byVerdict == null) {
            byStatus.putIfAbsent(statusClass, new ConcurrentHashMap<>());
            byVerdict = byStatus.get(statusClass);
        }
        Timer timer = byVerdict.get(verdict);
        if (timer == null) {
            // Two threads registering it at once get the same timer: the registry keeps one per name and tags.
            byVerdict.putIfAbsent(
                    verdict,
                    Timer.builder(PREFIX + "calls")
                            .description("managed calls as the app saw them, waits and resends included")
                            .tag("method", method)
                            .tag("status_class", statusClass)
                            .tag("verdict", verdict)
                            .tags(apiTags)
                            .register(meters));
            timer = byVerdict.get(verdict);
        }
        return timer;
    }

    /** The throttled gauge's value: a class, not a lambda, which would cost a class spun as the telemetry starts. */
    private static final class Throttled implements java.util.function.ToDoubleFunction<OtelTelemetry> {
        @Override
        public double applyAsDouble(OtelTelemetry t) {
            return t.clock.instant().isBefore(t.throttledUntil) ? 1 : 0;
        }
    }

    /** One physical attempt: a CLIENT span under the call's. */
    private final class Attempt implements AttemptObserver {
        private final Call call;
        private final boolean expectContinue;
        private final Span span;
        /**
         * Read only for the request-duration histogram: a clock read per attempt is not free. A replayed call's
         * attempt starts at the time it was made, not now.
         */
        private final long startNanos = requestDurations != null ? ReplayMoment.nanoTime() : 0L;

        private int status;

        Attempt(Call call, int resendCount, boolean expectContinue) {
            this.call = call;
            this.expectContinue = expectContinue;
            if (tracer == null) {
                this.span = Span.getInvalid();
                return;
            }
            io.opentelemetry.api.trace.SpanBuilder b = tracer.spanBuilder(
                            call.method.equals("_OTHER") ? "HTTP" : call.method)
                    .setParent(call.context)
                    .setSpanKind(SpanKind.CLIENT)
                    .setAttribute(METHOD, call.method)
                    .setAttribute(URL_FULL, call.url)
                    .setAttribute(SERVER_ADDRESS, call.host)
                    .setAttribute(SERVER_PORT, call.serverPort)
                    .setAttribute(API, api);
            if (resendCount > 0) {
                b.setAttribute(RESEND_COUNT, (long) resendCount);
            }
            this.span = b.startSpan();
        }

        @Override
        public void inject(BiConsumer<String, String> setHeader) {
            if (span.getSpanContext().isValid()) {
                W3CTraceContextPropagator.getInstance()
                        .inject(Context.root().with(span), setHeader, BiConsumer::accept);
            }
        }

        @Override
        public void response(
                int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict) {
            this.status = status;
            ResponseDiagnosis d = ResponseDiagnosis.of(status, verdict, headers);
            // Straight onto the span, not through an Attributes builder: the builder's list, its sorted copy and the
            // built attributes were made on every response only to be copied into the span's own map.
            span.setAttribute(STATUS, statusValue(status));
            span.setAttribute(STATUS_CLASS, statusClass(status));
            span.setAttribute(VERDICT, d.verdict);
            if (protocolVersion != null) {
                span.setAttribute(PROTOCOL_VERSION, protocolVersion);
            }
            for (int i = 0; i < PROXY_HEADERS.size(); i++) {
                List<String> values = headers.apply(PROXY_HEADERS.get(i));
                if (!values.isEmpty()) {
                    span.setAttribute(PROXY_HEADER_KEYS.get(i), fromServer(values));
                }
            }
            for (int i = 0; i < requestIdHeaders.size(); i++) {
                List<String> values = headers.apply(requestIdHeaders.get(i));
                if (!values.isEmpty()) {
                    span.setAttribute(REQUEST_ID, fromServer(values.get(0)));
                    break;
                }
            }
            if (d.diagnosis != null) {
                span.setAttribute(DIAGNOSIS, d.diagnosis);
                span.setAttribute(HINT, d.hint);
            }
            // The clock is read only for a response that has rate-limit headers; most have none.
            RateLimitReading rateLimit = RateLimitHeaders.anyPresent(headers)
                    ? RateLimitHeaders.readPresent(headers, ReplayMoment.instant(clock))
                    : null;
            if (rateLimit != null) {
                rateLimit.family().ifPresent(f -> span.setAttribute(RATE_LIMIT_FAMILY, f));
                rateLimit.limit().ifPresent(v -> span.setAttribute(RATE_LIMIT_LIMIT, v));
                rateLimit.remaining().ifPresent(v -> span.setAttribute(RATE_LIMIT_REMAINING, v));
                rateLimit.reset().ifPresent(v -> span.setAttribute(RATE_LIMIT_RESET_MS, v.toMillis()));
                rateLimit.retryAfter().ifPresent(v -> span.setAttribute(RATE_LIMIT_RETRY_AFTER_MS, v.toMillis()));
            }
            if (status >= 400) {
                span.setAttribute(ERROR_TYPE, Integer.toString(status));
                span.setStatus(StatusCode.ERROR);
            }
        }

        @Override
        public void decided(Decision decision, String retryAfter) {
            if (decision.resendsWithNonce()) {
                // Never the nonce itself: the event says only that the API asked for one.
                span.addEvent(PREFIX + "dpop.nonce");
                recordRetry("use_dpop_nonce");
            } else if (decision.action() == Decision.Action.WAIT_AND_RESEND) {
                Duration delay = decision.delay();
                call.waitedMillis += delay.toMillis();
                throttledFor(delay);
                AttributesBuilder a = Attributes.builder()
                        .put(PREFIX + "backoff.retry", decision.retry())
                        .put(PREFIX + "backoff.delay_ms", delay.toMillis())
                        .put(PREFIX + "backoff.reason", decision.reason());
                if (retryAfter != null) {
                    a.put(
                            AttributeKey.stringArrayKey("http.response.header.retry-after"),
                            List.of(fromServer(retryAfter)));
                }
                span.addEvent(PREFIX + "backoff", a.build());
                recordRetry("global_rate_limit");
                if (meters != null) {
                    waitTimers
                            .computeIfAbsent(decision.reason(), reason -> Timer.builder(PREFIX + "backoff.waits")
                                    .description("waits before resending a rate-limited call")
                                    .tag("reason", reason)
                                    .tags(apiTags)
                                    .register(meters))
                            .record(delay);
                }
            } else if (decision.action() == Decision.Action.REFRESH_AND_RESEND) {
                span.addEvent(PREFIX + "token.refresh");
                recordRetry("invalid_token");
            } else if (decision.reason() != null) {
                span.setAttribute(NOT_RESENT_REASON, decision.reason());
                if (meters != null) {
                    counters.computeIfAbsent("not_resent|" + decision.reason(), k -> Counter.builder(
                                            PREFIX + "not_resent")
                                    .description("refusals the agent handed to the app without resending, by reason "
                                            + "(retry_budget: the JVM's rate-limit resends were spent)")
                                    .tag("reason", decision.reason())
                                    .tags(apiTags)
                                    .register(meters))
                            .increment();
                }
            }
            span.end();
            recordDuration(null);
        }

        /** The request's {@code http.client.request.duration}: from the attempt's start to its answer or failure. */
        private void recordDuration(Throwable failure) {
            if (requestDurations != null) {
                requestDurations.record(
                        call.method, call.host, call.port, status, failure, ReplayMoment.nanoTime() - startNanos);
            }
        }

        @Override
        public Scope onTheWire() {
            return AppTraceContext.onTheWire(span.getSpanContext());
        }

        @Override
        public void failed(Throwable failure) {
            ResponseDiagnosis d = ResponseDiagnosis.ofFailure(failure, expectContinue);
            span.setAttribute(ERROR_TYPE, failure.getClass().getName());
            if (d.diagnosis != null) {
                span.setAttribute(DIAGNOSIS, d.diagnosis);
                span.setAttribute(HINT, d.hint);
            }
            span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
            span.end();
            recordDuration(failure);
        }

        private void recordRetry(String reason) {
            if (meters != null) {
                counters.computeIfAbsent("retry|" + reason, k -> Counter.builder(PREFIX + "retries")
                                .description("resends of managed calls, by reason")
                                .tag("reason", reason)
                                .tags(apiTags)
                                .register(meters))
                        .increment();
            }
        }
    }

    /** Header values from a response, each fit for a span (see {@link #fromServer(String)}). */
    static List<String> fromServer(List<String> values) {
        for (String v : values) {
            if (fromServer(v) != v) {
                List<String> clean = new java.util.ArrayList<>(values.size());
                for (String each : values) {
                    clean.add(fromServer(each));
                }
                return clean;
            }
        }
        return values;
    }

    /**
     * A header value from a response, fit for a span: it is the server's text, so it goes through
     * {@link ServerText} (capped, control characters escaped, every secret the agent holds cut
     * out). The same instance when nothing needs changing, as on every ordinary response, so the
     * common case allocates nothing.
     */
    static String fromServer(String value) {
        return ServerText.isClean(value) ? value : ServerText.of(value);
    }
}
