package io.apiwarden.telemetry;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.AgentLogLines;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdkBuilder;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.common.export.RetryPolicy;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps telemetry export from hurting the app: an unreachable collector costs one warning line,
 * said when the first export fails, and the app's exit is not held for it (see {@link ExportWatch}).
 *
 * <p>Without this, the SDK's own shutdown hook waited for the exporter's retries (about 8 s
 * with nothing listening on the default {@code localhost:4318}) before a one-call app could
 * exit, and its exporter logged a 40-line stack trace at SEVERE for every failed batch. With the
 * exporter's retries still on at exit, a refused connection held the exit for the whole
 * {@link #EXIT_FLUSH_LIMIT} (measured: +1.0 to 1.3 s) and said nothing.
 *
 * <p>What it hands the SDK are classes ({@link ExportHooks}), not lambdas: each lambda costs a class spun as the
 * telemetry starts or the JVM exits (docs/benchmarks.md).
 */
final class ExportGuard {
    /**
     * What the agent adds to the app's exit at most, for a collector that answers: long enough for
     * one on the same network to take the last batch. One that refused or never answered is not
     * waited for at all.
     */
    static final Duration EXIT_FLUSH_LIMIT = Duration.ofSeconds(1);
    /** The OTLP/HTTP default, used by autoconfiguration when no endpoint is set. */
    private static final String DEFAULT_ENDPOINT = "http://localhost:4318";
    /** The settings that name an OTLP exporter's endpoint, for the lines that say where it sends. */
    static final String OTLP_ENDPOINT_SETTING = "otel.exporter.otlp.endpoint (or OTEL_EXPORTER_OTLP_ENDPOINT)";
    /** The autoconfiguration setting that turns the OTLP exporters' retries off; then there is none to stop at exit. */
    private static final String RETRY_DISABLED = "otel.java.exporter.otlp.retry.disabled";
    /**
     * The bundled OTLP exporters' own loggers (relocated in the agent jar), silenced unless the
     * agent logs at debug: their failures are reported by {@link ExportWatch} instead. Not the
     * console exporter's ({@code exporter.logging}): its log is its output. Held here, because
     * java.util.logging keeps loggers only weakly and a collected one forgets its level.
     */
    private static final List<Logger> EXPORTER_LOGS = List.of(
            Logger.getLogger(exporterPackage() + ".otlp"),
            Logger.getLogger(exporterPackage() + ".internal"),
            Logger.getLogger(exporterPackage() + ".sender"));

    private final Clock clock;
    private final Consumer<String> warn;
    private final Consumer<String> info;
    /** One per exporter autoconfiguration built. */
    private final List<ExportWatch> watches = new CopyOnWriteArrayList<>();

    /** Telling the agent's log. */
    ExportGuard(Clock clock) {
        this(clock, AgentLogLines.WARN, AgentLogLines.INFO);
    }

    /** @param warn where a first telling goes; {@code info} where a later one does */
    ExportGuard(Clock clock, Consumer<String> warn, Consumer<String> info) {
        this.clock = clock;
        this.warn = warn;
        this.info = info;
    }

    /** Wraps the exporters autoconfiguration builds, and replaces its unbounded shutdown hook with one of ours. */
    AutoConfiguredOpenTelemetrySdkBuilder install(AutoConfiguredOpenTelemetrySdkBuilder builder) {
        if (!AgentLog.enabled(AgentLog.Level.DEBUG)) {
            for (Logger logger : EXPORTER_LOGS) {
                logger.setLevel(Level.OFF);
            }
        }
        return builder.disableShutdownHook()
                .addSpanExporterCustomizer(new ExportHooks.Spans(this))
                .addMetricExporterCustomizer(new ExportHooks.Metrics(this));
    }

    /** The span exporter autoconfiguration built, watched. */
    SpanExporter watched(SpanExporter exporter, ConfigProperties config) {
        ExportWatch watch = watch(exporter, config, "traces");
        return new WatchedSpanExporter(retryingThrough(exporter, config, watch), watch);
    }

    /** The metric exporter autoconfiguration built, watched. */
    MetricExporter watched(MetricExporter exporter, ConfigProperties config) {
        ExportWatch watch = watch(exporter, config, "metrics");
        return new WatchedMetricExporter(retryingThrough(exporter, config, watch), watch);
    }

    /**
     * Hands {@code atExit} the SDK's flush and stop (see {@link #exit}), for it to run when the JVM exits: after the
     * calls kept while the SDK started have reached it (see {@link KeptCalls#exiting}).
     */
    void shutDownAtExit(OpenTelemetrySdk sdk, Consumer<Runnable> atExit) {
        atExit.accept(new ExportHooks.Exit(this, sdk));
    }

    /**
     * Stops the exporters' retries, gives up at once on a destination known to fail, flushes the
     * rest waiting at most {@link #EXIT_FLUSH_LIMIT} in all, then says what was dropped.
     *
     * @return whether the SDK stopped within the limit, rather than the limit ending the wait
     */
    boolean exit(OpenTelemetrySdk sdk) {
        try {
            long start = System.nanoTime();
            // Loops, not method references: each would cost a class spun at exit, which the app waits for.
            for (ExportWatch watch : watches) {
                watch.exiting();
            }
            // The look at an endpoint counts against the same bound: the exit waits EXIT_FLUSH_LIMIT in all.
            long left = EXIT_FLUSH_LIMIT.toNanos() - (System.nanoTime() - start);
            boolean stopped =
                    sdk.shutdown().join(Math.max(0, left), TimeUnit.NANOSECONDS).isDone();
            for (ExportWatch watch : watches) {
                watch.exited();
            }
            return stopped;
        } catch (RuntimeException e) {
            // Exiting anyway: nothing to tell the app about.
            return false;
        }
    }

    /** Exports handed to the exporters and not settled yet. */
    int inFlight() {
        return watches.stream().mapToInt(ExportWatch::inFlight).sum();
    }

    /** A watch over one exporter: for OTLP, its endpoint and the setting that names it; otherwise the exporter's name. */
    private ExportWatch watch(Object exporter, ConfigProperties config, String signal) {
        String what = signal.equals("traces") ? "spans" : "metrics";
        String type = exporter.getClass().getSimpleName();
        ExportWatch watch = type.startsWith("Otlp")
                ? new ExportWatch(
                        what,
                        endpoint(new ExportHooks.Settings(config), signal),
                        OTLP_ENDPOINT_SETTING,
                        warn,
                        info,
                        clock)
                : new ExportWatch(what, type, "otel." + signal + ".exporter", warn, info, clock);
        watches.add(watch);
        return watch;
    }

    /**
     * The OTLP exporter rebuilt with its own retry policy but a retry decision of ours, which sees
     * each failed attempt as it happens and stops retrying once the JVM exits.
     */
    @SuppressWarnings("unchecked")
    private static <T> T retryingThrough(T exporter, ConfigProperties config, ExportWatch watch) {
        if (config.getBoolean(RETRY_DISABLED, false)) {
            return exporter;
        }
        RetryPolicy retry = RetryPolicy.getDefault().toBuilder()
                .setRetryExceptionPredicate(new ExportHooks.RetryDecision(watch))
                .build();
        if (exporter instanceof OtlpHttpSpanExporter) {
            OtlpHttpSpanExporter rebuilt = ((OtlpHttpSpanExporter) exporter)
                    .toBuilder().setRetryPolicy(retry).build();
            ((OtlpHttpSpanExporter) exporter).shutdown();
            return (T) rebuilt;
        }
        if (exporter instanceof OtlpHttpMetricExporter) {
            OtlpHttpMetricExporter rebuilt = ((OtlpHttpMetricExporter) exporter)
                    .toBuilder().setRetryPolicy(retry).build();
            ((OtlpHttpMetricExporter) exporter).shutdown();
            return (T) rebuilt;
        }
        return exporter;
    }

    /**
     * Where an OTLP exporter of {@code signal} sends, as autoconfiguration reads it from {@code setting} (a
     * setting's value, or null when it is not set).
     */
    static String endpoint(Function<String, String> setting, String signal) {
        String specific = setting.apply("otel.exporter.otlp." + signal + ".endpoint");
        if (specific != null) {
            return specific;
        }
        String general = setting.apply("otel.exporter.otlp.endpoint");
        return trimSlash(general != null ? general : DEFAULT_ENDPOINT) + "/v1/" + signal;
    }

    private static String trimSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static String exporterPackage() {
        String name = OtlpHttpSpanExporter.class.getName();
        return name.substring(0, name.indexOf(".exporter.") + ".exporter".length());
    }

    private static final class WatchedSpanExporter implements SpanExporter {
        private final SpanExporter delegate;
        private final ExportWatch watch;

        WatchedSpanExporter(SpanExporter delegate, ExportWatch watch) {
            this.delegate = delegate;
            this.watch = watch;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> spans) {
            return watch.export(spans.size(), new ExportHooks.SendSpans(delegate, spans));
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

    private static final class WatchedMetricExporter implements MetricExporter {
        private final MetricExporter delegate;
        private final ExportWatch watch;

        WatchedMetricExporter(MetricExporter delegate, ExportWatch watch) {
            this.delegate = delegate;
            this.watch = watch;
        }

        @Override
        public CompletableResultCode export(Collection<MetricData> metrics) {
            return watch.export(metrics.size(), new ExportHooks.SendMetrics(delegate, metrics));
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
