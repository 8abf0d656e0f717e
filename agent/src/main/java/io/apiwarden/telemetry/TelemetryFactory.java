package io.apiwarden.telemetry;

import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.GuardedTelemetry;
import io.apiwarden.core.telemetry.Telemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.instrumentation.micrometer.v1_5.OpenTelemetryMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Builds the agent's telemetry from its configuration: the OpenTelemetry SDK through the SDK's own
 * autoconfiguration (so every standard {@code otel.*} property and {@code OTEL_*} variable works:
 * service name, exporter, endpoint, protocol, sampler, resource), and the Micrometer registry.
 */
public final class TelemetryFactory {
    /** The instrumentation scope of the agent's spans. */
    static final String SCOPE = "io.apiwarden";

    private TelemetryFactory() {}

    /**
     * @param unwrapped runs the SDK's construction so that the HTTP client its OTLP exporter
     *     builds is not managed by the agent: the exporter's own traffic is never traced
     * @param startup takes the SDK's flush and stop, and runs it when the JVM exits (the SDK registers no exit
     *     hook of its own: one that came up while the JVM exited could not, see {@link KeptCalls#exiting}); and
     *     opens the Prometheus endpoint once the calls it kept while the telemetry started are replayed
     */
    static Telemetry create(
            WardenConfig config,
            Clock clock,
            java.util.function.Function<Supplier<OpenTelemetrySdk>, OpenTelemetrySdk> unwrapped,
            KeptCalls startup) {
        boolean otlpMetrics = config.metricsEnabled() && ExitDestination.otlpMetricsAskedFor();
        OpenTelemetrySdk sdk = null;
        if (config.tracingEnabled() || otlpMetrics) {
            try {
                sdk = unwrapped.apply(new SdkBuild(clock, startup));
            } catch (RuntimeException | LinkageError e) {
                // The SDK's messages name the otel.* property at fault, and may quote its value,
                // which can be a secret (otel.exporter.otlp.headers): values are cut off.
                AgentLog.error(
                        "OpenTelemetry could not start, calls are managed without spans; check the otel.* settings: "
                                + rootMessage(e),
                        null);
            }
        }
        Tracer tracer = sdk != null && config.tracingEnabled()
                ? sdk.getTracer(SCOPE, TelemetryFactory.class.getPackage().getImplementationVersion())
                : null;
        MeterRegistry meters = null;
        boolean exported = false;
        if (config.metricsEnabled()) {
            CompositeMeterRegistry composite = new CompositeMeterRegistry();
            if (config.prometheusPort().isPresent()) {
                composite.add(prometheus(config, startup));
            }
            if (otlpMetrics && sdk != null) {
                composite.add(OpenTelemetryMeterRegistry.builder(sdk).build());
            }
            exported = !composite.getRegistries().isEmpty();
            if (!exported) {
                // Nothing exports them, but they stay readable in the process (the demo's report, say).
                composite.add(new SimpleMeterRegistry());
            }
            // The one registry as it is, as nearly always: a composite's meters record through a new iterator over
            // its children on every record (two a managed call), for a fan-out of one.
            meters = composite.getRegistries().size() == 1
                    ? composite.getRegistries().iterator().next()
                    : composite;
        }
        if (tracer == null && meters == null) {
            return Telemetry.NOOP;
        }
        return GuardedTelemetry.of(
                new OtelTelemetry(tracer, meters, config.requestIdHeaders(), clock, config.name(), exported));
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = String.valueOf(t.getMessage());
        int eq = message.indexOf('=');
        return t.getClass().getSimpleName() + ": "
                + (eq < 0 ? message : message.substring(0, eq) + "=(value not shown)");
    }

    private static OpenTelemetrySdk sdk(Clock clock, java.util.function.Consumer<Runnable> atExit) {
        Map<String, String> defaults = new HashMap<>();
        // The agent records spans only; its meters go through Micrometer. Set otherwise, these win.
        defaults.put("otel.metrics.exporter", "none");
        defaults.put("otel.logs.exporter", "none");
        // The JDK's HTTP client carries OTLP over HTTP only; gRPC would need a bundled OkHttp or Netty.
        defaults.put("otel.exporter.otlp.protocol", "http/protobuf");
        ExportGuard guard = new ExportGuard(clock);
        OpenTelemetrySdk sdk = guard.install(AutoConfiguredOpenTelemetrySdk.builder())
                .addPropertiesSupplier(new Defaults(defaults))
                // The calls made while the SDK started are replayed with their own times and span ids.
                .addTracerProviderCustomizer(new Replayable())
                .build()
                .getOpenTelemetrySdk();
        guard.shutDownAtExit(sdk, atExit);
        return sdk;
    }

    private static MeterRegistry prometheus(WardenConfig config, KeptCalls startup) {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try {
            PrometheusEndpoint endpoint = PrometheusEndpoint.bind(
                    registry, config.prometheusHost(), config.prometheusPort().get());
            AgentLog.info("metrics for Prometheus at " + endpoint.url());
            // Served once the calls kept while the telemetry started are in the meters: a scrape in between would
            // read meters without them (the app's first calls, missing from its first scrape).
            OpenEndpoint open = new OpenEndpoint(endpoint);
            if (!startup.whenReady(open)) {
                open.run();
            }
        } catch (java.io.IOException | RuntimeException e) {
            AgentLog.error(
                    "the Prometheus endpoint could not listen on " + config.prometheusHost() + ":"
                            + config.prometheusPort().get()
                            + ": choose a free port with apiwarden.metrics.prometheus.port",
                    e);
        }
        return registry;
    }

    /** Opens the Prometheus endpoint; a failure to is one line, and the meters go on in the process. */
    private static final class OpenEndpoint implements Runnable {
        private final PrometheusEndpoint endpoint;

        OpenEndpoint(PrometheusEndpoint endpoint) {
            this.endpoint = endpoint;
        }

        @Override
        public void run() {
            try {
                endpoint.open();
            } catch (java.io.IOException | RuntimeException e) {
                AgentLog.error("the Prometheus endpoint at " + endpoint.url() + " could not start", e);
            }
        }
    }

    /** A class, not a lambda, which would cost a class spun as the telemetry starts (docs/benchmarks.md). */
    private static final class SdkBuild implements Supplier<OpenTelemetrySdk> {
        private final Clock clock;
        private final java.util.function.Consumer<Runnable> atExit;

        SdkBuild(Clock clock, java.util.function.Consumer<Runnable> atExit) {
            this.clock = clock;
            this.atExit = atExit;
        }

        @Override
        public OpenTelemetrySdk get() {
            return sdk(clock, atExit);
        }
    }

    private static final class Defaults implements Supplier<Map<String, String>> {
        private final Map<String, String> defaults;

        Defaults(Map<String, String> defaults) {
            this.defaults = defaults;
        }

        @Override
        public Map<String, String> get() {
            return defaults;
        }
    }

    private static final class Replayable
            implements BiFunction<SdkTracerProviderBuilder, ConfigProperties, SdkTracerProviderBuilder> {
        @Override
        public SdkTracerProviderBuilder apply(SdkTracerProviderBuilder tracing, ConfigProperties properties) {
            return ReplayMoment.replayable(tracing);
        }
    }
}
