package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JVM exits while the SDK is still starting: the calls kept meanwhile are waited for only when a collector
 * answers, and then reach its last flush; otherwise the exit goes at once and one line says what was dropped.
 */
class KeptCallsExitTest {
    /** Longer than any test runs: a test that waited for it would fail on its own time limit. */
    private static final Duration NEVER = Duration.ofHours(1);

    private static final String REFUSED = "nothing is listening there (connection refused)";

    private final List<SpanData> spans = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider tracing = ReplayMoment.replayable(SdkTracerProvider.builder())
            .addSpanProcessor(SimpleSpanProcessor.create(new OtelTelemetryTest.Collecting(spans)))
            .build();
    private final Telemetry real = new OtelTelemetry(
            tracing.get("test"), new SimpleMeterRegistry(), List.of(), Clock.systemUTC(), null, false);
    private final Map<String, String> settings = new HashMap<>();
    private final List<URI> probed = new CopyOnWriteArrayList<>();
    private final CountDownLatch probing = new CountDownLatch(1);

    @AfterEach
    void close() {
        tracing.close();
    }

    /** Kept calls whose exit probes with {@code answer} (why the endpoint is unreachable, or null: it answers). */
    private KeptCalls keptCalls(String answer, Duration readyAtExit) {
        return new KeptCalls(
                true,
                false,
                () -> new ExitDestination(settings::get, uri -> {
                    probed.add(uri);
                    probing.countDown();
                    return answer;
                }),
                readyAtExit);
    }

    @Test
    void aRefusedCollectorIsNotWaitedForAndOneLineSaysHowManySpansWereDroppedAndWhy() {
        KeptCalls kept = keptCalls(REFUSED, NEVER);
        StartingTelemetry starting = new StartingTelemetry(kept);
        StartingTelemetryTest.call(starting, 200);
        StartingTelemetryTest.call(starting, 200);

        String log;
        try (LogCapture capture = LogCapture.at("info")) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), kept::exiting);
            log = capture.text();
        }
        kept.ready(real);

        assertThat(probed).containsExactly(URI.create("http://localhost:4318/v1/traces"));
        assertThat(log.lines())
                .singleElement()
                .asString()
                .contains(
                        "WARN",
                        "spans of 2 managed calls",
                        REFUSED,
                        "http://localhost:4318/v1/traces",
                        "otel.exporter.otlp.endpoint",
                        "otel.traces.exporter=none");
        assertThat(spans).as("given up at exit, not replayed").isEmpty();
        assertThat(starting.call("GET", "https://api.example.com/v1", "api.example.com", 443))
                .isSameAs(CallObserver.NOOP);
    }

    @Test
    void theLineCountsAKeptTokenRefreshAsARefreshNotAsACall() {
        KeptCalls kept = keptCalls(REFUSED, NEVER);
        StartingTelemetry starting = new StartingTelemetry(kept);
        CallObserver call = starting.call("GET", "https://api.example.com/v1", "api.example.com", 443);
        try (Scope s = call.current()) {
            starting.refresh(URI.create("https://idp.example.com/token"), "refresh_token")
                    .end("success");
        }
        call.end(200, Verdict.SUCCESS, null);

        String log;
        try (LogCapture capture = LogCapture.at("info")) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), kept::exiting);
            log = capture.text();
        }

        assertThat(log).contains("the spans of 1 managed call and 1 token refresh made while the telemetry started");
        assertThat(KeptCalls.what(0, 2)).isEqualTo("2 token refreshes");
        assertThat(KeptCalls.what(3, 0)).isEqualTo("3 managed calls");
    }

    @Test
    void aCollectorThatAnswersGetsTheKeptCallsSpansInTheLastFlush() throws Exception {
        settings.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:4318/");
        KeptCalls kept = keptCalls(null, NEVER);
        StartingTelemetryTest.call(new StartingTelemetry(kept), 200);
        AtomicInteger spansAtFlush = new AtomicInteger(-1);
        Thread exit = new Thread(kept::exiting, "exit");
        exit.start();
        assertThat(probing.await(30, TimeUnit.SECONDS)).isTrue();

        // The SDK comes up while the JVM exits: it hands its flush over, then the kept calls are replayed into it.
        kept.accept(() -> spansAtFlush.set(spans.size()));
        kept.ready(real);
        exit.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(exit.isAlive()).isFalse();
        assertThat(probed).containsExactly(URI.create("http://127.0.0.1:4318/v1/traces"));
        assertThat(spansAtFlush.get())
                .as("the call's and its attempt's spans, before the flush")
                .isEqualTo(2);
    }

    @Test
    void theSdkStartWaitsForTheFirstKeptCallToEnd() {
        KeptCalls kept = keptCalls(REFUSED, NEVER);
        StartingTelemetry starting = new StartingTelemetry(kept);
        CallObserver open = starting.call("GET", "https://api.example.com/v1", "api.example.com", 443);

        assertThat(kept.awaitFirstCallEnd(Duration.ofMillis(1)))
                .as("a call under way")
                .isFalse();
        open.end(200, Verdict.SUCCESS, null);

        assertThat(kept.awaitFirstCallEnd(Duration.ofMillis(1))).isTrue();
    }

    @Test
    void anExitThatWaitsForTheSdkStartsItAtOnce() {
        settings.put("otel.exporter.otlp.endpoint", "http://127.0.0.1:4318/");
        KeptCalls kept = keptCalls(null, Duration.ofMillis(1));
        StartingTelemetry starting = new StartingTelemetry(kept);
        starting.call("GET", "https://api.example.com/v1", "api.example.com", 443); // never ends

        kept.exiting();

        assertThat(kept.awaitFirstCallEnd(Duration.ofMillis(1))).isTrue();
        assertThat(kept.exitedWithoutIt()).isFalse();
    }

    @Test
    void anExitThatDoesNotWaitLeavesTheSdkUnstarted() {
        KeptCalls kept = keptCalls(REFUSED, NEVER);
        StartingTelemetry starting = new StartingTelemetry(kept);
        starting.call("GET", "https://api.example.com/v1", "api.example.com", 443); // never ends

        kept.exiting();

        assertThat(kept.awaitFirstCallEnd(Duration.ofMillis(1))).isFalse();
        assertThat(kept.exitedWithoutIt())
                .as("a start not begun does not begin")
                .isTrue();
    }

    @Test
    void anExitWithNothingKeptLeavesTheSdkUnstartedToo() {
        KeptCalls kept = keptCalls(null, NEVER);

        kept.exiting();

        assertThat(kept.exitedWithoutIt()).isTrue();
    }

    @Test
    void anSdkThatIsNotReadyWithinTheBoundIsNotWaitedForLonger() {
        KeptCalls kept = keptCalls(null, Duration.ofMillis(1));
        StartingTelemetryTest.call(new StartingTelemetry(kept), 200);

        String log;
        try (LogCapture capture = LogCapture.at("info")) {
            kept.exiting();
            log = capture.text();
        }
        kept.ready(real);

        assertThat(log).contains("spans of 1 managed call ", "not ready within 1 ms");
        assertThat(spans).isEmpty();
    }

    @Test
    void withExportersOffTheExitNeitherProbesNorWaitsNorSaysAnything() {
        settings.put("otel.traces.exporter", "none");
        KeptCalls kept = keptCalls(null, NEVER);
        StartingTelemetryTest.call(new StartingTelemetry(kept), 200);

        String log;
        try (LogCapture capture = LogCapture.at("info")) {
            assertTimeoutPreemptively(Duration.ofSeconds(30), kept::exiting);
            log = capture.text();
        }

        assertThat(probed).isEmpty();
        assertThat(log).isEmpty();
    }

    @Test
    void withNothingKeptTheExitNeitherProbesNorWaits() {
        KeptCalls kept = keptCalls(null, NEVER);

        assertTimeoutPreemptively(Duration.ofSeconds(30), kept::exiting);

        assertThat(probed).isEmpty();
    }

    @Test
    void onceReadyTheExitFlushesAfterTheReplayWithoutProbing() {
        KeptCalls kept = keptCalls(REFUSED, NEVER);
        StartingTelemetryTest.call(new StartingTelemetry(kept), 200);
        AtomicInteger spansAtFlush = new AtomicInteger(-1);
        kept.accept(() -> spansAtFlush.set(spans.size()));
        kept.ready(real);

        kept.exiting();

        assertThat(probed).as("the SDK's own exit probes what it must").isEmpty();
        assertThat(spansAtFlush.get()).isEqualTo(2);
    }

    @Test
    void theDestinationIsReadAsAutoconfigurationReadsIt() {
        ExitDestination refusing = new ExitDestination(settings::get, uri -> {
            probed.add(uri);
            return REFUSED;
        });
        settings.put("otel.exporter.otlp.traces.endpoint", "http://collector.internal:4318/v1/traces");
        settings.put("otel.metrics.exporter", "otlp");

        assertThat(refusing.whyNotWait(true, true)).contains(REFUSED);
        assertThat(probed)
                .containsExactly(
                        URI.create("http://collector.internal:4318/v1/traces"),
                        URI.create("http://localhost:4318/v1/metrics"));

        settings.put("otel.traces.exporter", "console");
        assertThat(refusing.whyNotWait(true, false))
                .as("the console takes them")
                .isNull();
        settings.put("otel.sdk.disabled", "true");
        assertThat(refusing.whyNotWait(true, false)).isEqualTo(ExitDestination.NOWHERE);
    }
}
