package io.apiwarden.telemetry;

import io.apiwarden.core.log.AgentLog;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps telemetry export from hurting the app: an unreachable collector costs one warning line,
 * and exit waits for the last spans at most {@link #EXIT_FLUSH_LIMIT}.
 *
 * <p>Without this, the SDK's own shutdown hook waited for the exporter's retries (about 8 s
 * with nothing listening on the default {@code localhost:4318}) before a one-call app could
 * exit, and its exporter logged a 40-line stack trace at SEVERE for every failed batch.
 */
final class ExportGuard {
    /**
     * What the agent adds to the app's exit at most: long enough for a reachable collector on the
     * same network to take the last batch, short enough that nobody notices an unreachable one.
     */
    static final Duration EXIT_FLUSH_LIMIT = Duration.ofSeconds(1);
    /** The OTLP/HTTP default, used by autoconfiguration when no endpoint is set. */
    private static final String DEFAULT_ENDPOINT = "http://localhost:4318";
    /**
     * The bundled OTLP exporters' own loggers (relocated in the agent jar), silenced unless the
     * agent logs at debug: their failures are reported by {@link Reporting} instead. Not the
     * console exporter's ({@code exporter.logging}): its log is its output. Held here, because
     * java.util.logging keeps loggers only weakly and a collected one forgets its level.
     */
    private static final List<Logger> EXPORTER_LOGS = List.of(
            Logger.getLogger(exporterPackage() + ".otlp"),
            Logger.getLogger(exporterPackage() + ".internal"),
            Logger.getLogger(exporterPackage() + ".sender"));

    private ExportGuard() {
    }

    /** Wraps the exporters autoconfiguration builds, and replaces its unbounded shutdown hook with one of ours. */
    static AutoConfiguredOpenTelemetrySdkBuilder install(AutoConfiguredOpenTelemetrySdkBuilder builder) {
        if (!AgentLog.enabled(AgentLog.Level.DEBUG)) {
            EXPORTER_LOGS.forEach(logger -> logger.setLevel(Level.OFF));
        }
        return builder.disableShutdownHook()
                .addSpanExporterCustomizer((exporter, config) -> new ReportingSpanExporter(exporter, where(exporter, config, "traces")))
                .addMetricExporterCustomizer((exporter, config) -> new ReportingMetricExporter(exporter, where(exporter, config, "metrics")));
    }

    /** Flushes and stops the SDK when the JVM exits, waiting at most {@link #EXIT_FLUSH_LIMIT} in all. */
    static void shutDownAtExit(OpenTelemetrySdk sdk) {
        Thread hook = new Thread(() -> {
            try {
                sdk.shutdown().join(EXIT_FLUSH_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RuntimeException e) {
                // Exiting anyway: nothing to tell the app about.
            }
        }, "apiwarden-telemetry-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Where an exporter sends, for the warning: the endpoint for OTLP, the exporter's name otherwise. */
    private static Reporting where(Object exporter, ConfigProperties config, String signal) {
        String type = exporter.getClass().getSimpleName();
        if (!type.startsWith("Otlp")) {
            return new Reporting(type, "otel." + signal + ".exporter");
        }
        String specific = config.getString("otel.exporter.otlp." + signal + ".endpoint");
        String endpoint = specific != null ? specific
                : trimSlash(config.getString("otel.exporter.otlp.endpoint", DEFAULT_ENDPOINT)) + "/v1/" + signal;
        return new Reporting(UrlRedaction.redact(endpoint), "otel.exporter.otlp.endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT)");
    }

    private static String trimSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static String exporterPackage() {
        String name = OtlpHttpSpanExporter.class.getName();
        return name.substring(0, name.indexOf(".exporter.") + ".exporter".length());
    }

    /** Says once per exporter that it failed, naming where it sends and the setting to change. */
    static final class Reporting {
        private final String destination;
        private final String setting;
        private volatile boolean told;

        Reporting(String destination, String setting) {
            this.destination = destination;
            this.setting = setting;
        }

        CompletableResultCode watch(CompletableResultCode result, String what) {
            result.whenComplete(() -> {
                if (!result.isSuccess() && !told) {
                    told = true;
                    AgentLog.warn(what + " could not be sent to " + destination + " (nothing listening, or it refused them)"
                            + "; they are dropped and the app is not affected. Point " + setting
                            + " at your collector, or set otel." + (what.equals("spans") ? "traces" : "metrics")
                            + ".exporter=none to send none. Said once.");
                }
            });
            return result;
        }
    }

    private static final class ReportingSpanExporter implements SpanExporter {
        private final SpanExporter delegate;
        private final Reporting reporting;

        ReportingSpanExporter(SpanExporter delegate, Reporting reporting) {
            this.delegate = delegate;
            this.reporting = reporting;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return reporting.watch(delegate.export(spans), "spans");
        }

        @Override
        public CompletableResultCode flush() {
            return delegate.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return delegate.shutdown();
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }

    private static final class ReportingMetricExporter implements MetricExporter {
        private final MetricExporter delegate;
        private final Reporting reporting;

        ReportingMetricExporter(MetricExporter delegate, Reporting reporting) {
            this.delegate = delegate;
            this.reporting = reporting;
        }

        @Override
        public CompletableResultCode export(Collection<MetricData> metrics) {
            return reporting.watch(delegate.export(metrics), "metrics");
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
            return delegate.getAggregationTemporality(instrumentType);
        }

        @Override
        public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
            return delegate.getDefaultAggregation(instrumentType);
        }

        @Override
        public MemoryMode getMemoryMode() {
            return delegate.getMemoryMode();
        }

        @Override
        public CompletableResultCode flush() {
            return delegate.flush();
        }

        @Override
        public CompletableResultCode shutdown() {
            return delegate.shutdown();
        }

        @Override
        public String toString() {
            return delegate.toString();
        }
    }
}
