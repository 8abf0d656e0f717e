package io.apiwarden.telemetry;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.util.Collection;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What {@link ExportGuard} hands the SDK: classes, not lambdas, since each lambda costs a class spun at run time as
 * the telemetry starts or the JVM exits (docs/benchmarks.md).
 */
final class ExportHooks {
    private ExportHooks() {}

    /** Watches each span exporter autoconfiguration builds. */
    static final class Spans implements BiFunction<SpanExporter, ConfigProperties, SpanExporter> {
        private final ExportGuard guard;

        Spans(ExportGuard guard) {
            this.guard = guard;
        }

        @Override
        public SpanExporter apply(SpanExporter exporter, ConfigProperties config) {
            return guard.watched(exporter, config);
        }
    }

    /** Watches each metric exporter autoconfiguration builds. */
    static final class Metrics implements BiFunction<MetricExporter, ConfigProperties, MetricExporter> {
        private final ExportGuard guard;

        Metrics(ExportGuard guard) {
            this.guard = guard;
        }

        @Override
        public MetricExporter apply(MetricExporter exporter, ConfigProperties config) {
            return guard.watched(exporter, config);
        }
    }

    /** The SDK's flush and stop at the JVM's exit ({@link ExportGuard#exit}). */
    static final class Exit implements Runnable {
        private final ExportGuard guard;
        private final OpenTelemetrySdk sdk;

        Exit(ExportGuard guard, OpenTelemetrySdk sdk) {
            this.guard = guard;
            this.sdk = sdk;
        }

        @Override
        public void run() {
            guard.exit(sdk);
        }
    }

    /** The autoconfiguration's settings, by name. */
    static final class Settings implements Function<String, String> {
        private final ConfigProperties config;

        Settings(ConfigProperties config) {
            this.config = config;
        }

        @Override
        public String apply(String name) {
            return config.getString(name);
        }
    }

    /** Whether an export's failure is retried: its watch decides ({@link ExportWatch#retryAfter}). */
    static final class RetryDecision implements Predicate<IOException> {
        private final ExportWatch watch;

        RetryDecision(ExportWatch watch) {
            this.watch = watch;
        }

        @Override
        public boolean test(IOException failure) {
            return watch.retryAfter(failure);
        }
    }

    /** One batch of spans, handed to the exporter. */
    static final class SendSpans implements Supplier<CompletableResultCode> {
        private final SpanExporter exporter;
        private final Collection<SpanData> spans;

        SendSpans(SpanExporter exporter, Collection<SpanData> spans) {
            this.exporter = exporter;
            this.spans = spans;
        }

        @Override
        public CompletableResultCode get() {
            return exporter.export(spans);
        }
    }

    /** One batch of metrics, handed to the exporter. */
    static final class SendMetrics implements Supplier<CompletableResultCode> {
        private final MetricExporter exporter;
        private final Collection<MetricData> metrics;

        SendMetrics(MetricExporter exporter, Collection<MetricData> metrics) {
            this.exporter = exporter;
            this.metrics = metrics;
        }

        @Override
        public CompletableResultCode get() {
            return exporter.export(metrics);
        }
    }
}
