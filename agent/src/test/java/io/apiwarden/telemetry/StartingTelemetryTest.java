package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The calls made while the telemetry starts: kept, then told to the real telemetry with their own times, parents
 * and the span ids their requests carried; a bounded number of them.
 */
class StartingTelemetryTest {
    private final List<SpanData> spans = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider tracing = ReplayMoment.replayable(SdkTracerProvider.builder())
            .addSpanProcessor(SimpleSpanProcessor.create(new OtelTelemetryTest.Collecting(spans)))
            .build();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final Telemetry real =
            new OtelTelemetry(tracing.get("test"), meters, List.of(), java.time.Clock.systemUTC(), null, false);
    private final StartingTelemetry starting = new StartingTelemetry(kept(true));

    @AfterEach
    void close() {
        tracing.close();
    }

    @Test
    void aFleetWindowHeardBeforeTheTelemetryIsReadyHoldsTheGaugeOnceItIs() {
        starting.forApi("default").fleetWindowHeard(Duration.ofHours(1));

        starting.ready(real);

        assertThat(meters.get("apiwarden.throttled").gauge().value()).isEqualTo(1);
    }

    @Test
    void manyFleetWindowsHeardBeforeTheTelemetryIsReadyAreToldOnceForTheLongest() {
        Telemetry view = starting.forApi("default");
        view.fleetWindowHeard(Duration.ofHours(1));
        for (int i = 0; i < 1_000; i++) {
            view.fleetWindowHeard(Duration.ZERO);
        }

        starting.ready(real);

        assertThat(meters.get("apiwarden.throttled").gauge().value()).isEqualTo(1);
    }

    @Test
    void aFleetWindowOverBeforeTheTelemetryIsReadyIsNotToldToIt() {
        starting.forApi("default").fleetWindowHeard(Duration.ZERO);

        starting.ready(real);

        assertThat(meters.get("apiwarden.throttled").gauge().value()).isZero();
    }

    @Test
    void aCallMadeBeforeTheTelemetryIsReadyGetsItsSpansWithItsOwnTimesAndTheIdsItSent() {
        long before = Clock.getDefault().now();
        long started = System.nanoTime();
        Map<String, String> sent = call(starting, 200);
        long took = System.nanoTime() - started;
        long beforeReady = Clock.getDefault().now();
        assertThat(spans).isEmpty();

        starting.ready(real);

        SpanData call = span("apiwarden GET");
        SpanData attempt = span("GET");
        assertThat(call.getStartEpochNanos()).isGreaterThanOrEqualTo(before);
        assertThat(call.getEndEpochNanos()).isLessThan(beforeReady);
        assertThat(attempt.getParentSpanId()).isEqualTo(call.getSpanId());
        assertThat(sent.get("traceparent")).isEqualTo("00-" + attempt.getTraceId() + "-" + attempt.getSpanId() + "-01");
        assertThat(sent).as("no tracestate: the kept call's trace has none").containsOnlyKeys("traceparent");
        Timer calls = meters.get("apiwarden.calls").timer();
        assertThat(calls.count()).isEqualTo(1);
        assertThat(calls.totalTime(TimeUnit.NANOSECONDS)).isLessThanOrEqualTo(took);
    }

    @Test
    void withTracingOffAKeptCallsRequestsCarryNoTraceContext() {
        assertThat(call(new StartingTelemetry(kept(false)), 200)).isEmpty();
    }

    @Test
    void aCallInsideTheAppsOwnSpanJoinsItsTrace() {
        try (SdkTracerProvider app = SdkTracerProvider.builder().build()) {
            Span appSpan = app.get("app").spanBuilder("app").startSpan();
            Map<String, String> sent;
            try (io.opentelemetry.context.Scope s = appSpan.makeCurrent()) {
                sent = call(starting, 200);
            }
            starting.ready(real);

            SpanData call = span("apiwarden GET");
            assertThat(call.getTraceId()).isEqualTo(appSpan.getSpanContext().getTraceId());
            assertThat(call.getParentSpanId())
                    .isEqualTo(appSpan.getSpanContext().getSpanId());
            assertThat(sent.get("traceparent"))
                    .contains(appSpan.getSpanContext().getTraceId());
        }
    }

    @Test
    void aCallUnderWayWhenTheTelemetryBecomesReadyGoesOnInIt() {
        CallObserver call = starting.call("GET", "https://api.example.com/v1", "api.example.com", 443);
        AttemptObserver first = call.attempt(false);
        first.response(503, "HTTP/1.1", name -> List.of(), Verdict.CLIENT_ERROR);
        first.decided(Decision.returnToApp(), null);

        starting.ready(real);
        AttemptObserver second = call.attempt(false);
        Map<String, String> sent = new HashMap<>();
        second.inject(sent::put);
        second.response(200, "HTTP/1.1", name -> List.of(), Verdict.SUCCESS);
        second.decided(Decision.returnToApp(), null);
        call.end(200, Verdict.SUCCESS, null);

        SpanData callSpan = span("apiwarden GET");
        assertThat(spans).filteredOn(s -> s.getName().equals("GET")).hasSize(2).allSatisfy(a -> assertThat(
                        a.getParentSpanId())
                .isEqualTo(callSpan.getSpanId()));
        assertThat(sent.get("traceparent")).contains(callSpan.getTraceId());
    }

    @Test
    void aTokenRefreshStartedByAKeptCallNestsUnderIt() {
        CallObserver call = starting.call("GET", "https://api.example.com/v1", "api.example.com", 443);
        try (Scope s = call.current()) {
            RefreshObserver refresh =
                    starting.refresh(URI.create("https://idp.example.com/token"), "client_credentials");
            refresh.end("success");
        }
        call.end(200, Verdict.SUCCESS, null);

        starting.ready(real);

        assertThat(span("POST").getParentSpanId())
                .isEqualTo(span("apiwarden GET").getSpanId());
    }

    @Test
    void beyondTheLimitCallsAreManagedWithoutSpans() {
        for (int i = 0; i <= KeptCalls.LIMIT; i++) {
            starting.call("GET", "https://api.example.com/v1", "api.example.com", 443)
                    .end(200, Verdict.SUCCESS, null);
        }

        starting.ready(real);

        assertThat(spans).hasSize(KeptCalls.LIMIT);
        starting.call("GET", "https://api.example.com/v1", "api.example.com", 443)
                .end(200, Verdict.SUCCESS, null);
        assertThat(spans).hasSize(KeptCalls.LIMIT + 1);
    }

    /** Kept calls whose exit finds no collector (the exit's cases are in {@link KeptCallsExitTest}). */
    private static KeptCalls kept(boolean tracing) {
        return new KeptCalls(
                tracing,
                false,
                () -> new ExitDestination(name -> null, uri -> "nothing is listening there"),
                KeptCalls.READY_AT_EXIT);
    }

    /** One call with one attempt answered {@code status}; the headers its request got. */
    static Map<String, String> call(Telemetry telemetry, int status) {
        CallObserver call = telemetry.call("GET", "https://api.example.com/v1", "api.example.com", 443);
        AttemptObserver attempt = call.attempt(false);
        Map<String, String> sent = new HashMap<>();
        attempt.inject(sent::put);
        attempt.response(status, "HTTP/1.1", name -> List.of(), Verdict.SUCCESS);
        attempt.decided(Decision.returnToApp(), null);
        call.end(status, Verdict.SUCCESS, null);
        return sent;
    }

    private SpanData span(String name) {
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow();
    }
}
