package io.apiwarden.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * What the app under measurement runs with: no agent, API Warden, or the OpenTelemetry Java agent,
 * each on the same workload against the same server.
 *
 * <p>Both agents trace and meter every call and export over OTLP to the same local sink, so the
 * comparison includes the cost of exporting. The app sets its own {@code Authorization} header unless
 * API Warden is there to do it: without the agent a real app has to.
 */
enum AgentSetup {
    NO_AGENT("no agent", "none"),
    API_WARDEN("API Warden", "apiwarden"),
    /** API Warden without spans and meters: what the management itself costs, apart from the telemetry. */
    API_WARDEN_UNTRACED("API Warden, tracing and metrics off", "apiwarden-untraced"),
    /**
     * API Warden with nine more APIs configured beside the measured one ({@link #OTHER_APIS}), four of them on the
     * same host and port: what finding a request's API costs when there are several.
     */
    API_WARDEN_TEN_APIS("API Warden, 10 APIs configured", "apiwarden-10-apis"),
    OTEL_AGENT("OpenTelemetry agent", "otel"),
    /**
     * The README's attach line as a new user writes it: no {@code otel.*} setting, so tracing and metrics are on and
     * spans go to {@code http://localhost:4318}, where nothing listens. Only on {@code --setups=}.
     */
    API_WARDEN_README("API Warden, the README's attach line (no collector)", "apiwarden-readme"),
    /**
     * The same with another build of the agent, {@code -Dapiwarden.bench.before-jar=PATH}: a change's before and
     * after, taking turns in one run. Only on {@code --setups=}.
     */
    API_WARDEN_README_BEFORE("API Warden before, the README's attach line (no collector)", "apiwarden-readme-before"),
    /** {@link #NO_AGENT} under a JFR recording (the JDK's default settings): what JFR itself costs the app. */
    NO_AGENT_JFR("no agent, JFR recording on", "none-jfr"),
    /**
     * {@link #API_WARDEN_UNTRACED} under the same recording: beside {@link #NO_AGENT_JFR}, what the agent's JFR events
     * cost while a recording is on. Only on {@code --setups=}.
     */
    API_WARDEN_UNTRACED_JFR("API Warden, tracing and metrics off, JFR recording on", "apiwarden-untraced-jfr"),
    /**
     * The README's attach line with every OpenTelemetry exporter switched off ({@code otel.traces.exporter},
     * {@code otel.metrics.exporter} and {@code otel.logs.exporter} at {@code none}): spans and meters are made, nothing
     * is sent. Only on {@code --setups=}.
     */
    API_WARDEN_EXPORTERS_OFF("API Warden, the README's attach line, exporters off", "apiwarden-exporters-off"),
    /** The same with {@code -Dapiwarden.bench.before-jar=PATH}, as {@link #API_WARDEN_README_BEFORE}. */
    API_WARDEN_EXPORTERS_OFF_BEFORE(
            "API Warden before, the README's attach line, exporters off", "apiwarden-exporters-off-before"),
    /** {@link #API_WARDEN_UNTRACED} with {@code -Dapiwarden.bench.before-jar=PATH}. Only on {@code --setups=}. */
    API_WARDEN_UNTRACED_BEFORE("API Warden before, tracing and metrics off", "apiwarden-untraced-before");

    /** The setups a run has unless {@code --setups=} names others: the four the report compares. */
    static final java.util.Set<AgentSetup> DEFAULT =
            java.util.EnumSet.of(NO_AGENT, API_WARDEN, API_WARDEN_UNTRACED, OTEL_AGENT);

    /** An in-memory recording with the JDK's default settings, as {@code jcmd <pid> JFR.start} makes one. */
    private static final String JFR_RECORDING = "-XX:StartFlightRecording=settings=default,disk=false";

    /** The APIs configured beside the measured one in {@link #API_WARDEN_TEN_APIS}. */
    static final int OTHER_APIS = 9;
    /** Of {@link #OTHER_APIS}, those on the measured API's host and port: the router walks them for that host. */
    static final int OTHER_APIS_ON_THE_SAME_HOST = 4;

    /** The file with the app's own bearer token, for the setups in which the app authenticates by itself. */
    static final String APP_TOKEN_FILE_PROPERTY = "bench.app-token-file";

    private final String label;
    /** Its name in {@code --setups=}. */
    private final String option;

    AgentSetup(String label, String option) {
        this.label = label;
        this.option = option;
    }

    static AgentSetup named(String option) {
        for (AgentSetup setup : values()) {
            if (setup.option.equals(option)) {
                return setup;
            }
        }
        throw new IllegalArgumentException("--setups takes " + optionNames() + ", not '" + option + "'");
    }

    static String optionNames() {
        StringBuilder names = new StringBuilder();
        for (AgentSetup setup : values()) {
            names.append(names.length() == 0 ? "" : ",").append(setup.option);
        }
        return names.toString();
    }

    String label() {
        return label;
    }

    /** The JVM options of an app process under this setup, against {@code target}. */
    List<String> jvmArgs(Target target) {
        List<String> args = new ArrayList<>();
        if (this == NO_AGENT_JFR || this == API_WARDEN_UNTRACED_JFR) {
            args.add(JFR_RECORDING);
        }
        switch (this) {
            case NO_AGENT_JFR:
            case NO_AGENT:
                args.add("-D" + APP_TOKEN_FILE_PROPERTY + "=" + target.accessTokenFile());
                break;
            case API_WARDEN_README:
            case API_WARDEN_README_BEFORE:
            case API_WARDEN_EXPORTERS_OFF:
            case API_WARDEN_EXPORTERS_OFF_BEFORE:
                args.add("-javaagent:" + agentJar(target));
                args.add("-Dapiwarden.base-url=" + target.baseUrl());
                args.add("-Dapiwarden.auth-url=" + target.authUrl());
                args.add("-Dapiwarden.access-token-file=" + target.accessTokenFile());
                if (this == API_WARDEN_EXPORTERS_OFF || this == API_WARDEN_EXPORTERS_OFF_BEFORE) {
                    args.add("-Dotel.traces.exporter=none");
                    args.add("-Dotel.metrics.exporter=none");
                    args.add("-Dotel.logs.exporter=none");
                }
                break;
            case API_WARDEN_UNTRACED_JFR:
            case API_WARDEN:
            case API_WARDEN_UNTRACED:
            case API_WARDEN_UNTRACED_BEFORE:
            case API_WARDEN_TEN_APIS:
                args.add("-javaagent:" + agentJar(target));
                args.add("-Dapiwarden.base-url=" + target.baseUrl());
                args.add("-Dapiwarden.auth-url=" + target.authUrl());
                args.add("-Dapiwarden.access-token-file=" + target.accessTokenFile());
                args.add("-Dapiwarden.log.level=warn");
                if (this == API_WARDEN_TEN_APIS) {
                    args.addAll(otherApis(target));
                }
                if (this == API_WARDEN_UNTRACED
                        || this == API_WARDEN_UNTRACED_BEFORE
                        || this == API_WARDEN_UNTRACED_JFR) {
                    args.add("-Dapiwarden.tracing.enabled=false");
                    args.add("-Dapiwarden.metrics.enabled=false");
                } else {
                    args.addAll(otlpExport(target));
                }
                break;
            case OTEL_AGENT:
                args.add("-javaagent:" + target.otelAgentJar());
                args.add("-D" + APP_TOKEN_FILE_PROPERTY + "=" + target.accessTokenFile());
                args.add("-Dotel.javaagent.logging=none");
                args.addAll(otlpExport(target));
                break;
            default:
                throw new AssertionError(this);
        }
        return args;
    }

    /**
     * Nine named APIs the measured calls never go to: some under other base paths of the measured API's origin (the
     * router compares the request with each of that host's bases), the rest on other hosts. Each needs only a base
     * and a token to be valid; none is ever called.
     */
    private static List<String> otherApis(Target target) {
        List<String> args = new ArrayList<>();
        java.net.URI base = target.baseUrl();
        String origin = base.getScheme() + "://" + base.getRawAuthority();
        for (int i = 1; i <= OTHER_APIS; i++) {
            String name = "bench-" + i;
            String url = i <= OTHER_APIS_ON_THE_SAME_HOST
                    ? origin + "/other-" + i + "/v1"
                    : "https://api-" + i + ".example.invalid/v1";
            args.add("-Dapiwarden.api." + name + ".base-url=" + url);
            args.add("-Dapiwarden.api." + name + ".access-token=bench-other-api-token-" + i);
        }
        return args;
    }

    /** The agent jar measured: the build under test, or for a "before" setup the one it is compared with. */
    private String agentJar(Target target) {
        if (this != API_WARDEN_README_BEFORE
                && this != API_WARDEN_EXPORTERS_OFF_BEFORE
                && this != API_WARDEN_UNTRACED_BEFORE) {
            return target.apiWardenJar().toString();
        }
        String jar = System.getProperty("apiwarden.bench.before-jar");
        if (jar == null) {
            throw new IllegalArgumentException(
                    "the setup " + option + " needs -Dapiwarden.bench.before-jar=PATH (the agent jar to compare)");
        }
        return jar;
    }

    /** The same standard OpenTelemetry settings for both agents: traces and metrics to the local sink. */
    private static List<String> otlpExport(Target target) {
        return List.of(
                "-Dotel.service.name=apiwarden-bench",
                "-Dotel.traces.exporter=otlp",
                "-Dotel.metrics.exporter=otlp",
                "-Dotel.logs.exporter=none",
                "-Dotel.exporter.otlp.protocol=http/protobuf",
                "-Dotel.exporter.otlp.endpoint=" + target.otlpEndpoint());
    }
}
