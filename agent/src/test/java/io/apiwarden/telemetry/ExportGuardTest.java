package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's OpenTelemetry SDK, built by autoconfiguration through {@link ExportGuard}, with its
 * real OTLP exporter pointed at a port where nothing listens: the first failed attempt is said at
 * once, and the exit drops the last spans instead of waiting out the exporter's retries.
 */
class ExportGuardTest {
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final List<String> infos = new CopyOnWriteArrayList<>();
    private final CountDownLatch warned = new CountDownLatch(1);
    private final List<Integer> inFlightWhenWarned = new CopyOnWriteArrayList<>();
    private final ExportGuard guard = new ExportGuard(
            Clock.systemUTC(),
            line -> {
                warnings.add(line);
                inFlightWhenWarned.add(inFlight());
                warned.countDown();
            },
            infos::add);
    private String endpoint = "http://127.0.0.1:" + portWithNothingListening();
    private OpenTelemetrySdk sdk;

    @AfterEach
    void stop() {
        if (sdk != null) {
            sdk.shutdown().join(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void withNothingListeningTheExitDropsTheLastSpansAtOnceAndSaysHowManyAndWhy() {
        // The batch delay is the SDK's default (5 s): as in a short run, the spans meet the exporter only at exit.
        Tracer tracer = sdk(Map.of()).getTracer("test");
        for (int i = 0; i < 3; i++) {
            tracer.spanBuilder("call " + i).startSpan().end();
        }

        boolean stoppedWithinTheLimit = exit();

        // With the exporter's retries on, its second attempt comes ~1 s after the refusal: the limit would end the
        // wait.
        assertThat(stoppedWithinTheLimit)
                .as("the SDK stopped before the exit's limit ended the wait")
                .isTrue();
        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("3 spans dropped at exit, not sent to " + endpoint
                        + "/v1/traces: nothing is listening there (connection refused)")
                .contains("otel.exporter.otlp.endpoint", "otel.traces.exporter=none");
        assertThat(infos).isEmpty();
    }

    @Test
    void aListenerThatHangsUpOnEveryExportIsNotRetriedAtExit() throws Exception {
        try (ServerSocket hangsUp = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(
                    () -> {
                        while (!hangsUp.isClosed()) {
                            try {
                                hangsUp.accept().close();
                            } catch (IOException closed) {
                                // the test is over
                            }
                        }
                    },
                    "hangs-up");
            acceptor.setDaemon(true);
            acceptor.start();
            endpoint = "http://127.0.0.1:" + hangsUp.getLocalPort();
            Tracer tracer = sdk(Map.of()).getTracer("test");
            tracer.spanBuilder("call").startSpan().end();

            boolean stoppedWithinTheLimit = exit();

            // The connection is taken, so the span is offered; the exporter's retry would come ~1 s after the hang-up.
            assertThat(stoppedWithinTheLimit)
                    .as("the SDK stopped before the exit's limit ended the wait")
                    .isTrue();
            assertThat(warnings)
                    .singleElement()
                    .asString()
                    .startsWith(
                            "1 span dropped at exit, not sent to " + endpoint + "/v1/traces: the connection failed");
        }
    }

    @Test
    void theFirstFailedAttemptIsSaidAtOnceAndTheExitDoesNotWaitForTheRetries() throws InterruptedException {
        Tracer tracer = sdk(Map.of("otel.bsp.schedule.delay", "1")).getTracer("test");
        tracer.spanBuilder("first").startSpan().end();

        assertThat(warned.await(30, TimeUnit.SECONDS)).as("a warning").isTrue();
        assertThat(warnings)
                .singleElement()
                .asString()
                .startsWith("spans could not be sent to " + endpoint
                        + "/v1/traces: nothing is listening there (connection refused)")
                .contains("otel.exporter.otlp.endpoint", "otel.traces.exporter=none");
        assertThat(inFlightWhenWarned)
                .as("said while the exporter was still retrying, not after")
                .containsExactly(1);

        // Queued behind the export that is retrying.
        tracer.spanBuilder("second").startSpan().end();
        tracer.spanBuilder("third").startSpan().end();
        boolean stoppedWithinTheLimit = exit();

        assertThat(stoppedWithinTheLimit)
                .as("the SDK stopped before the exit's limit ended the wait")
                .isTrue();
        assertThat(warnings).as("the warning is said once").hasSize(1);
        assertThat(infos)
                .singleElement()
                .asString()
                .startsWith(
                        "3 spans dropped at exit, not sent to " + endpoint + "/v1/traces: nothing is listening there");
    }

    /** The guard's exit, which stops the SDK: nothing left for {@link #stop()}. */
    private boolean exit() {
        boolean stopped = guard.exit(sdk);
        sdk = null;
        return stopped;
    }

    private OpenTelemetrySdk sdk(Map<String, String> more) {
        Map<String, String> properties = new java.util.HashMap<>(more);
        properties.put("otel.exporter.otlp.endpoint", endpoint);
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        sdk = guard.install(AutoConfiguredOpenTelemetrySdk.builder())
                .addPropertiesSupplier(() -> properties)
                .build()
                .getOpenTelemetrySdk();
        return sdk;
    }

    private int inFlight() {
        return guard.inFlight();
    }

    private static int portWithNothingListening() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theExitProbeConnectsOnlyWhereNoNameIsLookedUp() {
        assertThat(ExportWatch.needsNoLookUp("127.0.0.1")).isTrue();
        assertThat(ExportWatch.needsNoLookUp("[::1]")).isTrue();
        assertThat(ExportWatch.needsNoLookUp("LocalHost")).isTrue();
        assertThat(ExportWatch.needsNoLookUp("collector.example")).isFalse();
        assertThat(ExportWatch.needsNoLookUp("10.0.0.1.example")).isFalse();
        // A name's destination is left to the exit's bounded flush: no answer from the probe, no look-up made.
        assertThat(ExportWatch.unreachable(URI.create("http://collector.invalid:4318/v1/traces")))
                .isNull();
    }
}
