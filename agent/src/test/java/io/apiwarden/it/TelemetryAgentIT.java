package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.OkHttpApp;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Apps with the agent attached export OTLP to a local receiver that decodes the real protobuf
 * payload: a success, a refresh, a back-off and a proxy 502, through the JDK client and OkHttp.
 */
class TelemetryAgentIT {
    private static final String STALE = "stale-access-c0ffee";
    private static final String ISSUED = "issued-access-7f3a9c";
    private static final String REFRESH = "first-refresh-9b8a7";

    private final MockWebServer api = new MockWebServer();
    private final MockWebServer collector = new MockWebServer();
    private final List<ExportTraceServiceRequest> exports = new CopyOnWriteArrayList<>();
    private final List<io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest> metricExports =
            new CopyOnWriteArrayList<>();
    private final List<RecordedRequest> apiRequests = new CopyOnWriteArrayList<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        api.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                String path = r.getUrl().encodedPath();
                if (path.equals("/auth/token")) {
                    return new MockResponse.Builder()
                            .code(200)
                            .addHeader("Content-Type", "application/json")
                            .body("{\"access_token\":\"" + ISSUED + "\",\"expires_in\":3600}")
                            .build();
                }
                apiRequests.add(r);
                int n = hits.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
                MockResponse.Builder b =
                        new MockResponse.Builder().addHeader("X-Request-Id", "req-" + path.substring(8) + "-" + n);
                if (!("Bearer " + ISSUED).equals(r.getHeaders().get("Authorization"))) {
                    return b.code(401)
                            .addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                            .body("expired")
                            .build();
                }
                if (path.equals("/api/v1/orders") && n == 2) {
                    return b.code(429)
                            .addHeader("Retry-After", "1")
                            .body("{\"message\":\"API rate limit exceeded (global)\"}")
                            .build();
                }
                if (path.equals("/api/v1/slow") && n == 1) {
                    return b.code(429)
                            .body("{\"message\":\"API rate limit exceeded (global)\"}")
                            .build();
                }
                if (path.equals("/api/v1/edge")) {
                    return b.code(502)
                            .addHeader("Via", "1.1 edge-7")
                            .addHeader("X-Cache", "MISS from edge-7")
                            .addHeader("Server", "cloudflare")
                            .body("<html>bad gateway</html>")
                            .build();
                }
                return b.code(200).body("ok").build();
            }
        });
        api.start(0);
        collector.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                try {
                    if (r.getUrl().encodedPath().equals("/v1/metrics")) {
                        metricExports.add(
                                io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest.parseFrom(
                                        r.getBody().toByteArray()));
                    } else {
                        exports.add(
                                ExportTraceServiceRequest.parseFrom(r.getBody().toByteArray()));
                    }
                    return new MockResponse.Builder().code(200).build();
                } catch (Exception e) {
                    return new MockResponse.Builder().code(400).build();
                }
            }
        });
        collector.start(0);
    }

    @AfterEach
    void stop() {
        api.close();
        collector.close();
    }

    private String url(String path) {
        return api.url(path).toString();
    }

    private AgentJvm app() {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", STALE)
                .property("apiwarden.refresh-token", REFRESH)
                .property("apiwarden.backoff.initial-delay", "100ms")
                .property("otel.service.name", "telemetry-it")
                .property(
                        "otel.exporter.otlp.endpoint",
                        collector.url("/").toString().replaceAll("/$", ""));
    }

    @Test
    void jdkHttpClientCallsExplainThemselvesInTheTrace() throws Exception {
        AgentJvm.Result r = app().run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "async:" + url("/api/v1/slow"),
                        "send:" + url("/api/v1/edge"));

        assertThat(r.stdout).as(r.toString()).hasSize(3);
        assertTrace();
    }

    @Test
    void okHttpCallsExplainThemselvesInTheTrace() throws Exception {
        AgentJvm jvm = app();
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("okhttp5"))) {
            jars.sorted().forEach(jvm::classPath);
        }
        AgentJvm.Result r = jvm.run(
                OkHttpApp.class,
                "execute:" + url("/api/v1/user"),
                "enqueue:" + url("/api/v1/slow"),
                "execute:" + url("/api/v1/edge"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STATUS"))
                .hasSize(3);
        assertTrace();
    }

    private void assertTrace() {
        List<Span> spans = spans();
        assertThat(exports.toString()).doesNotContain(STALE, ISSUED, REFRESH);
        assertThat(resourceAttribute("service.name")).isEqualTo("telemetry-it");

        List<Span> calls = spans.stream()
                .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_INTERNAL)
                .collect(Collectors.toList());
        assertThat(calls)
                .extracting(Span::getName)
                .containsOnly("apiwarden GET")
                .hasSize(3);

        // The refresh: 401, a refresh span, and a resend that carries the request ID and resend count.
        List<Span> user = attemptsOf(spans, "/api/v1/user");
        assertThat(user).hasSize(2);
        assertThat(str(user.get(0), "apiwarden.verdict")).isEqualTo("invalid_token");
        assertThat(user.get(0).getEventsList())
                .extracting(Span.Event::getName)
                .containsExactly("apiwarden.token.refresh");
        assertThat(num(user.get(1), "http.request.resend_count")).isEqualTo(1);
        assertThat(num(user.get(1), "http.response.status_code")).isEqualTo(200);
        assertThat(str(user.get(1), "apiwarden.status_class")).isEqualTo("2xx");
        assertThat(str(user.get(1), "apiwarden.request_id")).isEqualTo("req-user-2");
        Span refresh = spans.stream()
                .filter(s -> s.getName().equals("POST"))
                .findFirst()
                .orElseThrow();
        assertThat(refresh.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
        assertThat(str(refresh, "apiwarden.token.refresh.result")).isEqualTo("success");
        assertThat(str(refresh, "url.full")).isEqualTo(url("/auth/token"));

        // The back-off: the 429 attempt says why the next one waited, and how long.
        List<Span> slow = attemptsOf(spans, "/api/v1/slow");
        assertThat(slow).hasSize(2);
        Span.Event backoff = slow.get(0).getEventsList().get(0);
        assertThat(backoff.getName()).isEqualTo("apiwarden.backoff");
        assertThat(eventNum(backoff, "apiwarden.backoff.retry")).isEqualTo(1);
        assertThat(eventNum(backoff, "apiwarden.backoff.delay_ms")).isEqualTo(100);
        assertThat(str(slow.get(0), "apiwarden.verdict")).isEqualTo("global_rate_limit");
        Span slowCall = calls.stream()
                .filter(c -> c.getSpanId().equals(slow.get(0).getParentSpanId()))
                .findFirst()
                .orElseThrow();
        assertThat(num(slowCall, "apiwarden.waited_ms")).isEqualTo(100);
        assertThat(num(slowCall, "apiwarden.attempts")).isEqualTo(2);

        // The proxy 502: marked as the proxy's, with the headers that say so.
        Span edge = attemptsOf(spans, "/api/v1/edge").get(0);
        assertThat(str(edge, "apiwarden.verdict")).isEqualTo("proxy_error");
        assertThat(str(edge, "apiwarden.diagnosis")).isEqualTo("proxy");
        assertThat(str(edge, "error.type")).isEqualTo("502");
        assertThat(array(edge, "http.response.header.via")).containsExactly("1.1 edge-7");
        assertThat(array(edge, "http.response.header.x-cache")).containsExactly("MISS from edge-7");
        assertThat(edge.getStatus().getCode())
                .isEqualTo(io.opentelemetry.proto.trace.v1.Status.StatusCode.STATUS_CODE_ERROR);

        // Every attempt sent its own span's context, once.
        for (RecordedRequest sent : apiRequests) {
            assertThat(sent.getHeaders().values("traceparent")).hasSize(1);
        }
        String lastUserTraceparent = apiRequests.stream()
                .filter(q -> q.getUrl().encodedPath().equals("/api/v1/user"))
                .reduce((a, b) -> b)
                .orElseThrow()
                .getHeaders()
                .get("traceparent");
        // Flags: sampled, and (W3C trace context level 2) a random trace ID.
        assertThat(lastUserTraceparent)
                .matches("00-" + hex(user.get(1).getTraceId().toByteArray()) + "-"
                        + hex(user.get(1).getSpanId().toByteArray()) + "-0[13]");
    }

    private List<Span> spans() {
        List<Span> all = new ArrayList<>();
        for (ExportTraceServiceRequest e : exports) {
            for (ResourceSpans rs : e.getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    all.addAll(ss.getSpansList());
                }
            }
        }
        all.sort((a, b) -> Long.compare(a.getStartTimeUnixNano(), b.getStartTimeUnixNano()));
        return all;
    }

    private String resourceAttribute(String key) {
        return exports.get(0).getResourceSpans(0).getResource().getAttributesList().stream()
                .filter(kv -> kv.getKey().equals(key))
                .map(kv -> kv.getValue().getStringValue())
                .findFirst()
                .orElse(null);
    }

    private List<Span> attemptsOf(List<Span> spans, String path) {
        return spans.stream()
                .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT
                        && s.getName().equals("GET")
                        && str(s, "url.full").endsWith(path))
                .collect(Collectors.toList());
    }

    private static AnyValue value(List<KeyValue> attributes, String key) {
        return attributes.stream()
                .filter(kv -> kv.getKey().equals(key))
                .map(KeyValue::getValue)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no attribute " + key + " in " + attributes));
    }

    private static String str(Span s, String key) {
        return value(s.getAttributesList(), key).getStringValue();
    }

    private static long num(Span s, String key) {
        return value(s.getAttributesList(), key).getIntValue();
    }

    private static long eventNum(Span.Event e, String key) {
        return value(e.getAttributesList(), key).getIntValue();
    }

    private static List<String> array(Span s, String key) {
        return value(s.getAttributesList(), key).getArrayValue().getValuesList().stream()
                .map(AnyValue::getStringValue)
                .collect(Collectors.toList());
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    @Test
    void besideTheOpenTelemetryJavaAgentBothAgentsSpansLandInOneTrace() throws Exception {
        AgentJvm.Result r = app().jvmArg("-javaagent:" + AgentJvm.itLib("opentelemetry-javaagent.jar"))
                .property("otel.metrics.exporter", "none")
                .property("otel.logs.exporter", "none")
                .property("otel.exporter.otlp.protocol", "http/protobuf")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"), "async:" + url("/api/v1/slow"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 ok", "STATUS 200 ok");
        for (RecordedRequest sent : apiRequests) {
            assertThat(sent.getHeaders().values("traceparent"))
                    .as("one traceparent on each request")
                    .hasSize(1);
        }
        List<Span> ours = new ArrayList<>();
        List<Span> theirs = new ArrayList<>();
        for (ExportTraceServiceRequest e : exports) {
            for (ResourceSpans rs : e.getResourceSpansList()) {
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    (ss.getScope().getName().equals("io.apiwarden") ? ours : theirs).addAll(ss.getSpansList());
                }
            }
        }
        List<Span> attempts = ours.stream()
                .filter(s -> s.getKind() == Span.SpanKind.SPAN_KIND_CLIENT
                        && s.getName().equals("GET"))
                .collect(Collectors.toList());
        assertThat(attempts).as("our attempts: 401, resend, 429, resend").hasSize(4);
        for (Span attempt : attempts) {
            assertThat(theirs)
                    .as("the OpenTelemetry agent's client span under our attempt " + str(attempt, "url.full"))
                    .anySatisfy(t -> {
                        assertThat(t.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
                        assertThat(t.getTraceId()).isEqualTo(attempt.getTraceId());
                        assertThat(t.getParentSpanId()).isEqualTo(attempt.getSpanId());
                    });
        }
    }

    @Test
    void oneCallThatMeetsBothErrorsIsOneTraceThatTellsTheStory() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.backoff.initial-delay", "200ms")
                .run(JdkClientApp.class, "send:" + url("/api/v1/orders"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 ok");
        List<Span> trace = spans();
        assertThat(trace)
                .extracting(Span::getTraceId)
                .as("one trace")
                .containsOnly(trace.get(0).getTraceId());
        assertThat(trace).extracting(Span::getName).containsExactly("apiwarden GET", "GET", "POST", "GET", "GET");
        assertThat(attemptsOf(trace, "/api/v1/orders"))
                .extracting(s -> num(s, "http.response.status_code"))
                .containsExactly(401L, 429L, 200L);
        Span.Event backoff =
                attemptsOf(trace, "/api/v1/orders").get(1).getEventsList().get(0);
        assertThat(backoff.getAttributesList())
                .anySatisfy(kv -> assertThat(kv.getValue().getStringValue()).isEqualTo("retry-after"));
        String picture = TraceWaterfall.draw(trace);
        Files.writeString(
                Path.of(System.getProperty("apiwarden.it.app-classes"), "..", "trace-waterfall.txt"), picture);
        System.out.println(picture);
    }

    @Test
    void aGeneratedRequestIdGoesOnEveryAttemptOfACallAndTracingCanBeOff() throws Exception {
        AgentJvm.Result r = app().property("apiwarden.request-id.header", "X-Correlation-Id")
                .property("apiwarden.tracing.enabled", "false")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"), "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 ok", "STATUS 200 ok");
        List<String> ids = apiRequests.stream()
                .map(q -> q.getHeaders().get("X-Correlation-Id"))
                .collect(Collectors.toList());
        assertThat(ids).hasSize(3).doesNotContainNull();
        assertThat(ids.get(0))
                .as("the 401 and its resend are one call")
                .isEqualTo(ids.get(1))
                .isNotEqualTo(ids.get(2));
        assertThat(apiRequests)
                .allSatisfy(q -> assertThat(q.getHeaders().get("traceparent")).isNull());
        assertThat(exports).isEmpty();
    }

    @Test
    void theCallJoinsTheAppsOwnCurrentTrace() throws Exception {
        AgentJvm jvm = app().property("apiwarden.access-token", ISSUED)
                .jvmArg("-javaagent:" + AgentJvm.itLib("opentelemetry-javaagent.jar"))
                .property("otel.metrics.exporter", "none")
                .property("otel.logs.exporter", "none")
                .property("otel.exporter.otlp.protocol", "http/protobuf");
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("otel-api"))) {
            jars.sorted().forEach(jvm::classPath);
        }

        AgentJvm.Result r = jvm.run(io.apiwarden.it.apps.TracedApp.class, url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).hasSize(2).first().isEqualTo("STATUS 200");
        String[] app = r.stdout.get(1).split(" ");
        Span call = spans().stream()
                .filter(s -> s.getName().equals("apiwarden GET"))
                .findFirst()
                .orElseThrow();
        assertThat(hex(call.getTraceId().toByteArray())).isEqualTo(app[1]);
        assertThat(hex(call.getParentSpanId().toByteArray())).isEqualTo(app[2]);
    }

    @Test
    void metersGoOverOtlpWhenAskedFor() throws Exception {
        AgentJvm.Result r = app().property("otel.metrics.exporter", "otlp")
                .property("otel.traces.exporter", "none")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 ok");
        List<String> names = metricExports.stream()
                .flatMap(m -> m.getResourceMetricsList().stream())
                .flatMap(rm -> rm.getScopeMetricsList().stream())
                .flatMap(sm -> sm.getMetricsList().stream())
                .map(io.opentelemetry.proto.metrics.v1.Metric::getName)
                .collect(Collectors.toList());
        assertThat(names)
                .contains("apiwarden.calls", "apiwarden.retries", "apiwarden.token.refreshes", "apiwarden.throttled");
        assertThat(exports).as("no spans: otel.traces.exporter=none").isEmpty();
    }

    @Test
    void thePrometheusEndpointServesTheMetersWithTheirCounts() throws Exception {
        int port = AgentMetrics.freePort();

        AgentJvm.Result r = app().property("apiwarden.metrics.prometheus.port", Integer.toString(port))
                .property("otel.traces.exporter", "none")
                .run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "send:" + url("/api/v1/slow"),
                        "send:" + url("/api/v1/user"),
                        "print:http://127.0.0.1:" + port + "/metrics");

        List<String> metrics = r.stdout.stream()
                .filter(l -> l.startsWith("BODY "))
                .map(l -> l.substring(5))
                .collect(Collectors.toList());
        assertThat(metrics)
                .as(r.toString())
                // Every meter names its API: "default", the API of the unnamed properties.
                .contains("apiwarden_calls_seconds_count{api=\"default\",method=\"GET\",status_class=\"2xx\","
                        + "verdict=\"success\"} 3")
                .contains("apiwarden_retries_total{api=\"default\",reason=\"invalid_token\"} 1.0")
                .contains("apiwarden_retries_total{api=\"default\",reason=\"global_rate_limit\"} 1.0")
                .contains(
                        "apiwarden_token_refreshes_total{api=\"default\",grant=\"refresh_token\",result=\"success\"} 1.0")
                .contains("apiwarden_backoff_waits_seconds_count{api=\"default\",reason=\"backoff\"} 1")
                .anySatisfy(l -> assertThat(l).startsWith("apiwarden_throttled{api=\"default\"} "))
                // The semantic conventions' histogram, one record per request: the API's 401, 429 and 200s.
                .anySatisfy(l -> assertThat(l)
                        .startsWith("http_client_request_duration_seconds_count{api=\"default\",error_type=\"\","
                                + "http_request_method=\"GET\",http_response_status_code=\"200\""))
                .anySatisfy(l -> assertThat(l)
                        .startsWith("http_client_request_duration_seconds_count{api=\"default\",error_type=\"429\","));
        assertThat(r.agentLog()).anySatisfy(l -> assertThat(l)
                .contains("metrics for Prometheus at http://127.0.0.1:" + port + "/metrics"));
    }

    @Test
    void withNoCollectorListeningTheAppExitsWithoutWaitingForTheExporter() throws Exception {
        int nothingThere = AgentMetrics.freePort();

        AgentJvm.Result r = app().property("otel.exporter.otlp.endpoint", "http://127.0.0.1:" + nothingThere)
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"), "clock:");
        long exited = System.currentTimeMillis();

        assertThat(r.stdout).as(r.toString()).hasSize(2);
        long mainEnded = Long.parseLong(r.stdout.get(1).substring("CLOCK ".length()));
        // The exporter retries a refused connection for about 8 s; at exit the agent does not retry.
        // The bound is loose for a busy machine and still far below what waiting for the retries takes.
        assertThat(exited - mainEnded)
                .as("milliseconds from the end of main to the end of the process")
                .isLessThan(5_000);
        assertThat(r.stderr)
                .as(r.toString())
                .noneSatisfy(l -> assertThat(l).contains("SEVERE"))
                .noneSatisfy(l -> assertThat(l).startsWith("\tat "));
        // The SDK starts once the first call has ended, so a one-call app exits before it is ready: the call (with its
        // two attempts) and the refresh are still kept. Were the SDK ready by then, its four spans would
        // be the ones dropped, ended too recently for the batch delay. Either way one line, naming the endpoint.
        String notSent = " dropped at exit, not sent to http://127.0.0.1:" + nothingThere + "/v1/traces: "
                + "nothing is listening there (connection refused)";
        assertThat(r.agentLog())
                .as(r.toString())
                .filteredOn(l -> l.contains("WARN"))
                .singleElement()
                .asString()
                .contains("otel.exporter.otlp.endpoint", "otel.traces.exporter=none")
                .satisfiesAnyOf(
                        l -> assertThat(l)
                                .contains(
                                        "the spans of 1 managed call and 1 token refresh made while the telemetry started"
                                                + notSent),
                        l -> assertThat(l).contains("4 spans" + notSent));
    }

    @Test
    void aCollectorThatRefusesTheSpansCostsOneWarningLineNamingTheEndpoint() throws Exception {
        try (MockWebServer notACollector = new MockWebServer()) {
            notACollector.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest request) {
                    return new MockResponse.Builder()
                            .code(404)
                            .body("no OTLP here")
                            .build();
                }
            });
            notACollector.start(0);
            String endpoint = notACollector.url("/").toString().replaceAll("/$", "");

            AgentJvm.Result r = app().property("otel.exporter.otlp.endpoint", endpoint)
                    .property("otel.bsp.schedule.delay", "10ms")
                    .run(
                            JdkClientApp.class,
                            "send:" + url("/api/v1/user"),
                            "send:" + url("/api/v1/user"),
                            "send:" + url("/api/v1/user"));

            assertThat(r.stdout).as(r.toString()).hasSize(3);
            assertThat(notACollector.getRequestCount()).as("spans were offered").isPositive();
            // The first failed export says so; when the SDK became ready only after the app's calls (they were
            // kept and replayed into it), that is the export at exit, whose line says the spans were dropped there.
            assertThat(r.agentLog())
                    .as(r.toString())
                    .filteredOn(l -> l.contains("WARN"))
                    .singleElement()
                    .asString()
                    .containsAnyOf("spans could not be sent to ", "spans dropped at exit, not sent to ")
                    .contains(endpoint + "/v1/traces", "otel.exporter.otlp.endpoint");
            assertThat(r.stderr)
                    .noneSatisfy(l -> assertThat(l).contains("SEVERE"))
                    .noneSatisfy(l -> assertThat(l).startsWith("\tat "));
        }
    }
}
