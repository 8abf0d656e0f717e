package io.apiwarden.agent;

import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.ConfigException;
import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.InstrumentationSettings;
import io.apiwarden.core.config.SystemProperties;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.unmanaged.WatchedApi;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent's entry points. {@code premain} does the least it can: read the log level and the client switches, and
 * register class-file transformers that match by name; the rest of the configuration is read on the start thread
 * ({@link AgentStart}). ASM is only loaded when a class the agent weaves is, and the token manager when the app builds
 * its first managed client.
 */
public final class ApiWardenAgent {

    private ApiWardenAgent() {}

    /** Called for {@code -javaagent:apiwarden-agent.jar}. */
    public static void premain(String args, Instrumentation inst) {
        install(inst);
    }

    /**
     * Called when the agent is loaded into a running JVM ({@code attach}). {@code args} holds
     * {@code apiwarden.key=value} pairs separated by commas; they are set as system properties
     * first, so they configure the agent like {@code -D} options would.
     */
    public static void agentmain(String args, Instrumentation inst) {
        if (args != null) {
            for (String pair : args.split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.startsWith("apiwarden.")) {
                    System.setProperty(
                            pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
                }
            }
        }
        install(inst);
    }

    /** The base URL of the one API, or each API's name and base. */
    private static String apis(AgentConfig config) {
        if (config.apis().size() == 1) {
            return config.first().scope().baseUrl().toString();
        }
        List<String> apis = new ArrayList<>();
        for (WardenConfig api : config.apis()) {
            apis.add(api.name() + " " + api.scope().baseUrl());
        }
        return String.join(", ", apis);
    }

    /** The APIs the unmanaged-client watches look out for: named in their warnings when there are several. */
    private static List<WatchedApi> watched(AgentConfig config) {
        if (config.apis().size() == 1) {
            return List.of(WatchedApi.only(config.first().scope()));
        }
        List<WatchedApi> watched = new ArrayList<>();
        for (WardenConfig api : config.apis()) {
            watched.add(WatchedApi.named(api.name(), api.scope()));
        }
        return watched;
    }

    /** Once per JVM: an attach after {@code -javaagent} (or a second attach) would weave every class twice. */
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();

    static final String ON_BOOT_CLASS_PATH = "the agent's jar is on the boot class path (-Xbootclasspath/a, or another"
            + " agent's Boot-Class-Path), from where java.net.http, which the JDK's HttpClient, the token requests and"
            + " the trace export need, cannot be reached; the agent stays inactive and the app runs without it. Attach"
            + " it with -javaagent only";

    private static void install(Instrumentation inst) {
        try {
            if (!WardenConfig.isEnabled(SystemProperties.GET, System.getenv())) {
                return;
            }
            if (!INSTALLED.compareAndSet(false, true)) {
                AgentLog.warn("the agent is already installed in this JVM; the second start is ignored");
                return;
            }
            if (ApiWardenAgent.class.getClassLoader() == null) {
                // Loaded by the boot class loader: the JDK's modules of the platform class loader are out of its
                // sight, and the JDK client's hook could not even be linked, so its calls would go out without their
                // token and without a word. Better no agent, and one line that says why.
                AgentLog.error(ON_BOOT_CLASS_PATH);
                return;
            }
            // The configuration file may set the level too: read it as every other setting is, before the lines
            // about the configuration are logged.
            if (!AgentLog.setLevel(AgentConfig.logLevel(SystemProperties.GET, System.getenv()))) {
                AgentLog.warn(
                        ConfigProperty.LOG_LEVEL.key() + " is not one of off, error, warn, info, debug; using info");
            }
            // Which classes to weave must be known before the app's first class loads: the client switches are read
            // here, the rest of the configuration on the start thread (AgentStart).
            InstrumentationSettings switches;
            try {
                switches = AgentConfig.instrumentation(SystemProperties.GET, System.getenv(), ClientModules.names());
            } catch (ConfigException e) {
                logInvalid(e);
                return;
            }
            List<String> off = new ArrayList<>();
            Set<String> managedClasses = new HashSet<>();
            // The warning names only the clients switched on: a client switched off is not one to move to.
            List<String> managedForms = new ArrayList<>();
            Set<String> switchedOn = new HashSet<>();
            Map<String, HookTransformer.Weaving> woven = new HashMap<>();
            for (ClientModule module : ClientModules.ALL) {
                if (switches.clientEnabled(module.name())) {
                    woven.putAll(ModuleWeaving.of(module));
                    managedClasses.addAll(module.managedClassesTheWatchKnows());
                    managedForms.add(module.managedForm());
                    switchedOn.add(module.name());
                } else {
                    off.add(module.displayName());
                }
            }
            boolean watching = switches.unmanagedWarningsEnabled();
            Transformers transformers = new Transformers(inst);
            String watchNames = watching ? ClientModules.either(managedForms) : null;
            // The start is under way before any transformer is: a hook that runs at once (a late attach retransforms
            // loaded classes) waits for the configuration rather than find none.
            AgentStart.begin(new Runnable() {
                // A class, not a lambda: a lambda's first use in premain costs the app's start a millisecond or two.
                @Override
                public void run() {
                    start(transformers, off, watchNames, switchedOn);
                }
            });
            if (!woven.isEmpty()) {
                // One transformer for every client: each class the JVM loads costs one look-up of its name.
                transformers.add(new HookTransformer("a client library", woven));
            }
            if (watching) {
                // A client library is watched only where the agent does not manage it (Apache HttpClient 5's minimal
                // clients).
                transformers.add(UnmanagedClientInstrumentation.transformer(managedClasses));
            }
        } catch (Throwable t) {
            AgentLog.error("could not start; the app runs without the agent", t);
        }
    }

    /**
     * The rest of the start, off the app's thread: the whole configuration, the APIs' routing and the watch's APIs. Until
     * it is over, a hook that needs them waits (AgentStart). A configuration found invalid here removes the transformers:
     * classes woven before that keep hooks that find no API and leave every call as it is.
     *
     * @param managedForms the clients switched on as the watch's warning names them; null when the watch is off
     */
    private static void start(
            Transformers transformers, List<String> off, String managedForms, Set<String> switchedOn) {
        AgentConfig agentConfig;
        try {
            agentConfig = AgentConfig.fromEnvironment(ClientModules.names());
        } catch (ConfigException e) {
            transformers.removeAll();
            logInvalid(e);
            return;
        }
        for (String warning : agentConfig.warnings()) {
            AgentLog.warn(warning);
        }
        AgentRuntime.configure(agentConfig);
        String api = apis(agentConfig);
        ClientsInUse.configure(api);
        // Which clients the app uses shows later: ClientsInUse names each when the app builds its first.
        AgentLog.info("installed for calls to " + api
                + (off.size() == ClientModules.ALL.size()
                        ? ": every client is switched off"
                        : off.isEmpty() ? "" : " (switched off: " + String.join(", ", off) + ")")
                + (agentConfig.routing().isEmpty() ? "" : "; " + String.join("; ", agentConfig.routing())));
        if (managedForms != null) {
            UnmanagedClientHook.configure(watched(agentConfig), managedForms, switchedOn);
        }
        // On a thread of its own, a daemon, not this one: the start thread is not a daemon (its lines must not be lost
        // to an early exit), and the warm-up must never hold the JVM's exit.
        try {
            WardenConfig first = agentConfig.first();
            FirstCallClasses.loadInBackground(managedForms != null, first.tracingEnabled() || first.metricsEnabled());
        } catch (RuntimeException | Error e) {
            // Only the first call's start-up is lost: its classes load on the app's thread, as without the warm-up.
            AgentLog.once(AgentLog.Level.DEBUG, "warm-up", "the first call's classes are not loaded ahead", e);
        }
    }

    /** One line naming every property that is wrong: the whole configuration is read for it, as the error is rare. */
    private static void logInvalid(ConfigException switches) {
        String message = switches.getMessage();
        try {
            AgentConfig.fromEnvironment(ClientModules.names());
        } catch (ConfigException all) {
            message = all.getMessage();
        }
        AgentLog.error("configuration is invalid, the agent stays inactive and the app runs without it: " + message);
    }

    /**
     * The transformers registered, so that a configuration found invalid on the start thread can take them back, also
     * when it is found before {@code premain} has registered them all.
     */
    private static final class Transformers {
        private final Instrumentation inst;
        private final List<HookTransformer> registered = new ArrayList<>();
        private boolean removed;

        Transformers(Instrumentation inst) {
            this.inst = inst;
        }

        synchronized void add(HookTransformer transformer) {
            if (!removed) {
                transformer.install(inst);
                registered.add(transformer);
            }
        }

        synchronized void removeAll() {
            removed = true;
            for (HookTransformer t : registered) {
                inst.removeTransformer(t);
            }
            registered.clear();
        }
    }
}
