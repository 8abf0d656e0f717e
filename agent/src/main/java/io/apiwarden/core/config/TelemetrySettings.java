package io.apiwarden.core.config;

import java.util.List;

/** Where spans and meters go, and which request IDs they carry: one for the agent, whatever the APIs. */
final class TelemetrySettings {
    final boolean tracingEnabled;
    final boolean metricsEnabled;
    final Integer prometheusPort;
    final String prometheusHost;
    final List<String> requestIdHeaders;
    final String requestIdHeader;

    TelemetrySettings(SectionReader r) {
        tracingEnabled = r.bool(ConfigProperty.TRACING_ENABLED);
        metricsEnabled = r.bool(ConfigProperty.METRICS_ENABLED);
        prometheusPort = r.port(ConfigProperty.PROMETHEUS_PORT);
        prometheusHost = r.valueOrDefault(ConfigProperty.PROMETHEUS_HOST);
        requestIdHeaders =
                r.headerNames(ConfigProperty.REQUEST_ID_HEADERS, r.valueOrDefault(ConfigProperty.REQUEST_ID_HEADERS));
        String generated = r.raw(ConfigProperty.REQUEST_ID_HEADER);
        requestIdHeader = generated == null
                ? null
                : r.headerNames(ConfigProperty.REQUEST_ID_HEADER, generated).stream()
                        .findFirst()
                        .orElse(null);
    }
}
