package io.apiwarden.agent;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.AgentLogLines;
import io.apiwarden.unmanaged.ConnectWatch;
import io.apiwarden.unmanaged.EscapeWatch;
import io.apiwarden.unmanaged.UnmanagedClient;
import io.apiwarden.unmanaged.WatchedApi;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * What the code woven into clients the agent does not manage asks for, once per woven class: the watch
 * of that client, shared by every class and loader of it so that the JVM warns once per client library;
 * and for the JDK's connect sites, the one last-resort {@link ConnectWatch}.
 * Public and static because the woven code reaches it by reflection through the system class loader.
 *
 * <p>No lambdas here: the first watched class and connect run it, and each costs a spun class (docs/benchmarks.md).
 */
public final class UnmanagedClientHook {
    /** Set by the agent's start ({@link AgentStart}), which loads nothing else of the watch: the rest comes with the first watched class. */
    private static volatile List<WatchedApi> apis;
    /** The clients the agent manages, as the warning names them. */
    private static volatile String managedClients;
    /** The names of the client modules switched on. */
    private static volatile Set<String> modulesOn = Set.of();

    private UnmanagedClientHook() {}

    static void configure(List<WatchedApi> watched, String managed, Set<String> switchedOn) {
        managedClients = managed;
        modulesOn = Set.copyOf(switchedOn);
        // Last: a watch that finds the APIs set reads the other two without waiting for the start.
        apis = List.copyOf(watched);
    }

    /** The watch of the client named {@code client} (an {@link UnmanagedClient} name, or {@link ConnectWatch#SITE}); never throws. */
    public static BiPredicate<Object, Object> watch(String client) {
        try {
            if (apis == null) {
                // The woven code keeps what it is given: wait for the APIs rather than watch nothing for good.
                AgentStart.await();
            }
            List<WatchedApi> s = apis;
            if (s == null) {
                return Watches.NOTHING_TO_WATCH;
            }
            if (ConnectWatch.SITE.equals(client)) {
                synchronized (Watches.BY_CLIENT) {
                    if (Watches.connects == null) {
                        Watches.connects = new ConnectWatch(
                                s,
                                knownClients(modulesOn),
                                ConnectWatch.sameCodeSourceAs(UnmanagedClientHook.class),
                                managedClients,
                                AgentLogLines.WARN);
                    }
                    return Watches.connects;
                }
            }
            UnmanagedClient kind = UnmanagedClient.valueOf(client);
            synchronized (Watches.BY_CLIENT) {
                EscapeWatch watch = Watches.BY_CLIENT.get(kind);
                if (watch == null) {
                    watch = new EscapeWatch(kind, s, managedClients, AgentLogLines.WARN);
                    Watches.BY_CLIENT.put(kind, watch);
                }
                return watch;
            }
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.DEBUG,
                    "unmanaged-watch-" + client,
                    "calls through " + client + " cannot be watched for the API; no warning will name them",
                    t);
            return Watches.NOTHING_TO_WATCH;
        }
    }

    /**
     * The clients the last resort knows by their classes: those watched call by call (named there, with their URLs),
     * then every client module, left alone while it is on and named with its switch while it is off.
     */
    static List<ConnectWatch.KnownClient> knownClients(Set<String> switchedOn) {
        List<ConnectWatch.KnownClient> known = new ArrayList<>();
        for (UnmanagedClient watched : UnmanagedClient.values()) {
            known.add(ConnectWatch.KnownClient.leftAlone(new WatchedClasses(watched)));
        }
        for (ClientModule module : ClientModules.ALL) {
            Predicate<Class<?>> opensConnectionsIn = new ModuleClasses(module);
            known.add(
                    switchedOn.contains(module.name())
                            ? module.connectsFromPlainNettyLoops()
                                    ? ConnectWatch.KnownClient.leftAloneOnPlainNettyLoops(opensConnectionsIn)
                                    : ConnectWatch.KnownClient.leftAlone(opensConnectionsIn)
                            : ConnectWatch.KnownClient.switchedOff(
                                    opensConnectionsIn,
                                    module.displayName(),
                                    ConfigProperty.CLIENT_ENABLED.keyFor(module.name())));
        }
        return known;
    }

    /** The classes that open a client module's connections. */
    private static final class ModuleClasses implements Predicate<Class<?>> {
        private final ClientModule module;

        ModuleClasses(ClientModule module) {
            this.module = module;
        }

        @Override
        public boolean test(Class<?> type) {
            return module.opensConnectionsIn(type);
        }
    }

    /** The classes that open the connections of a client watched call by call. */
    private static final class WatchedClasses implements Predicate<Class<?>> {
        private final UnmanagedClient client;

        WatchedClasses(UnmanagedClient client) {
            this.client = client;
        }

        @Override
        public boolean test(Class<?> type) {
            return client.opensConnectionsIn(type);
        }
    }

    private static final class Watches {
        /** For a client that is not to be watched: the woven code stops asking at once. */
        static final BiPredicate<Object, Object> NOTHING_TO_WATCH = new NothingToWatch();

        static final Map<UnmanagedClient, EscapeWatch> BY_CLIENT = new EnumMap<>(UnmanagedClient.class);

        /** Guarded by {@link #BY_CLIENT}. */
        static ConnectWatch connects;
    }

    private static final class NothingToWatch implements BiPredicate<Object, Object> {
        @Override
        public boolean test(Object first, Object second) {
            return true;
        }
    }
}
