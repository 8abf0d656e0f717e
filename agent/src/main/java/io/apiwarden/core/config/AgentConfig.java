package io.apiwarden.core.config;

import io.apiwarden.core.scope.ApiScope;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The agent's whole configuration: every API it manages, each with its own {@link WardenConfig}, read from one
 * {@link PropertySource} and checked as a whole. The unnamed properties define the API {@code default}; each
 * {@code apiwarden.api.<name>.*} another. Agent-wide sections (telemetry, instrumentation) are read once and shared.
 */
public final class AgentConfig {
    private final List<WardenConfig> apis;
    private final List<String> routing;

    private AgentConfig(List<WardenConfig> apis, List<String> routing) {
        this.apis = List.copyOf(apis);
        this.routing = List.copyOf(routing);
    }

    /** Reads the JVM's system properties, environment and configuration file. */
    public static AgentConfig fromEnvironment(Collection<String> clients) throws ConfigException {
        return from(SystemProperties.GET, System.getProperties().stringPropertyNames(), System.getenv(), clients);
    }

    /**
     * Reads the configuration: a system property wins over its environment variable, and both over the file.
     *
     * @param systemPropertyNames the names of the system properties, among which the named APIs are found
     * @throws ConfigException naming every property that is wrong and what to do about it
     */
    public static AgentConfig from(
            Function<String, String> systemProperties,
            Collection<String> systemPropertyNames,
            Map<String, String> environment,
            Collection<String> clients)
            throws ConfigException {
        Problems problems = new Problems();
        PropertySource source = PropertySource.of(systemProperties, systemPropertyNames, environment, problems);
        SectionReader agentWide = new SectionReader(source, problems, null);
        boolean enabled = agentWide.bool(ConfigProperty.ENABLED);
        Set<String> names = source.apiNames(problems);
        List<SectionReader> readers = new ArrayList<>();
        List<String> apiNames = new ArrayList<>();
        if (names.isEmpty() || setsAnIdentity(agentWide)) {
            readers.add(agentWide);
            apiNames.add(WardenConfig.DEFAULT_API);
        }
        for (String name : names) {
            readers.add(new SectionReader(source, problems, name));
            apiNames.add(name);
        }
        List<ApiSettings> identities = new ArrayList<>();
        List<CallSettings> calls = new ArrayList<>();
        List<StoreSettings> stores = new ArrayList<>();
        for (SectionReader r : readers) {
            ApiSettings api = ApiSettings.read(r);
            identities.add(api);
            calls.add(new CallSettings(r));
            stores.add(new StoreSettings(r, api.tokenUrl));
        }
        TelemetrySettings telemetry = new TelemetrySettings(agentWide);
        InstrumentationSettings instrumentation = new InstrumentationSettings(agentWide, clients);
        List<String> routing = Routing.check(apiNames, scopes(identities), problems);
        problems.throwIfAny();
        List<WardenConfig> apis = new ArrayList<>();
        List<ApiScope> scopes = scopes(identities);
        for (int i = 0; i < readers.size(); i++) {
            apis.add(new WardenConfig(
                    apiNames.get(i),
                    readers.size() > 1,
                    Routing.basesUnder(i, scopes),
                    enabled,
                    identities.get(i),
                    calls.get(i),
                    stores.get(i),
                    telemetry,
                    instrumentation,
                    problems.warnings()));
        }
        return new AgentConfig(apis, routing);
    }

    /**
     * {@code apiwarden.log.level} as set (system property, environment or configuration file), or null: read before
     * the rest, so that the lines about the configuration itself are logged at the level it asks for.
     */
    public static String logLevel(Function<String, String> systemProperties, Map<String, String> environment) {
        PropertySource source = PropertySource.of(systemProperties, List.of(), environment, new Problems());
        return source.value(ConfigProperty.LOG_LEVEL.key(), ConfigProperty.LOG_LEVEL.envName());
    }

    /**
     * The client switches and the watch's, read before the rest of the configuration: {@code premain} needs them to
     * know which classes to weave before the app's first class loads, and the rest is read off the app's thread.
     *
     * @throws ConfigException naming a switch that is not true or false
     */
    public static InstrumentationSettings instrumentation(
            Function<String, String> systemProperties, Map<String, String> environment, Collection<String> clients)
            throws ConfigException {
        Problems problems = new Problems();
        PropertySource source = PropertySource.of(systemProperties, List.of(), environment, problems);
        InstrumentationSettings switches =
                new InstrumentationSettings(new SectionReader(source, problems, null), clients);
        problems.throwIfAny();
        return switches;
    }

    /** Whether an unnamed identity property is set: then the unnamed properties are an API of their own. */
    private static boolean setsAnIdentity(SectionReader unnamed) {
        for (ConfigProperty p : ConfigProperty.values()) {
            if (p.identity() && unnamed.raw(p) != null) {
                return true;
            }
        }
        return false;
    }

    private static List<ApiScope> scopes(List<ApiSettings> apis) {
        List<ApiScope> scopes = new ArrayList<>();
        for (ApiSettings api : apis) {
            scopes.add(api.scope);
        }
        return scopes;
    }

    /** Every API, the unnamed one ({@link WardenConfig#DEFAULT_API}) first when there is one, then by name. */
    public List<WardenConfig> apis() {
        return apis;
    }

    /** The first API: the agent-wide settings (telemetry, instrumentation) are the same in each. */
    public WardenConfig first() {
        return apis.get(0);
    }

    /** Settings that work but deserve a look, for every API. */
    public List<String> warnings() {
        return first().warnings();
    }

    /** Where APIs' bases overlap (the longest base wins), for the start-up line; empty when none do. */
    public List<String> routing() {
        return routing;
    }
}
