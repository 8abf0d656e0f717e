package io.apiwarden.telemetry;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.function.Function;

/**
 * Where the spans (and OTLP meters) of the calls kept while the SDK started would go, asked at the JVM's exit
 * before the SDK is ready: read from the same {@code otel.*} settings autoconfiguration reads, without loading it,
 * and probed as the SDK's own exit probes a collector no export has reached ({@link ExportWatch#unreachable}).
 * Only a destination that may take them is worth holding the app's exit for.
 */
final class ExitDestination {
    /** Nothing would be sent anywhere ({@code otel.traces.exporter=none}, say): nothing to wait for or to say. */
    static final String NOWHERE = "";

    private final Function<String, String> setting;
    private final Function<URI, String> probe;

    /** The JVM's own settings, probed over the network. */
    ExitDestination() {
        this(new OtelSettings(), new Probe());
    }

    /**
     * @param setting an {@code otel.*} setting's value, or null when it is not set
     * @param probe why nothing takes a connection at an endpoint, or null when something does
     */
    ExitDestination(Function<String, String> setting, Function<URI, String> probe) {
        this.setting = setting;
        this.probe = probe;
    }

    /**
     * Why the kept calls need not be waited for, as the end of the line that says they were dropped; null when a
     * destination may take them (it answers, it cannot be probed without a name look-up, or it is the console);
     * {@link #NOWHERE} when they would go nowhere.
     *
     * @param tracing whether they have spans; {@code otlpMetrics} whether their meters go over OTLP
     */
    String whyNotWait(boolean tracing, boolean otlpMetrics) {
        if ("true".equalsIgnoreCase(trimmed(setting.apply("otel.sdk.disabled")))) {
            return NOWHERE;
        }
        String why = NOWHERE;
        for (String signal : new String[] {tracing ? "traces" : null, otlpMetrics ? "metrics" : null}) {
            if (signal == null) {
                continue;
            }
            String exporters = trimmed(setting.apply("otel." + signal + ".exporter"));
            for (String exporter : (exporters == null ? "otlp" : exporters).split(",")) {
                String name = exporter.trim().toLowerCase(Locale.ROOT);
                if (name.isEmpty() || name.equals("none")) {
                    continue;
                }
                if (!name.equals("otlp")) {
                    return null; // the console's, or another the SDK loads: it takes them in the process
                }
                String endpoint = ExportGuard.endpoint(setting, signal);
                String unreachable = unreachable(endpoint);
                if (unreachable == null) {
                    return null;
                }
                why = "not sent to " + UrlRedaction.redact(endpoint) + ": " + unreachable;
            }
        }
        return why;
    }

    private String unreachable(String endpoint) {
        try {
            URI uri = new URI(endpoint);
            return uri.getHost() == null ? null : probe.apply(uri);
        } catch (URISyntaxException e) {
            return null; // the SDK will say what is wrong with it; not known to be unreachable
        }
    }

    /** The user set {@code otel.metrics.exporter} to something: the agent's default is none. */
    static boolean otlpMetricsAskedFor() {
        String v = trimmed(otelSetting("otel.metrics.exporter"));
        return v != null && !v.equalsIgnoreCase("none");
    }

    /** An {@code otel.*} setting as autoconfiguration reads it: the system property, else the variable. */
    static String otelSetting(String name) {
        String property = System.getProperty(name);
        return property != null
                ? property
                : System.getenv(name.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_'));
    }

    private static String trimmed(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }

    // Classes, not method references: each would cost a class spun as the app builds its first client.
    private static final class OtelSettings implements Function<String, String> {
        @Override
        public String apply(String name) {
            return otelSetting(name);
        }
    }

    private static final class Probe implements Function<URI, String> {
        @Override
        public String apply(URI endpoint) {
            return ExportWatch.unreachable(endpoint);
        }
    }
}
