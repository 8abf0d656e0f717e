package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.unmanaged.EscapeWatch;
import io.apiwarden.unmanaged.UnmanagedClient;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * What the code woven into clients the agent does not manage asks for, once per woven class: the watch
 * of that client, shared by every class and loader of it so that the JVM warns once per client library.
 * Public and static because the woven code reaches it by reflection through the system class loader.
 */
public final class UnmanagedClientHook {
    /** Set in {@code premain}, which loads nothing else of the watch: the rest comes with the first watched class. */
    private static volatile ApiScope scope;
    /** The clients the agent manages, as the warning names them. */
    private static volatile String managedClients;

    private UnmanagedClientHook() {}

    static void configure(ApiScope apiScope, String managed) {
        scope = apiScope;
        managedClients = managed;
    }

    /** The watch of the client named {@code client} (an {@link UnmanagedClient} name); never throws. */
    public static BiPredicate<Object, Object> watch(String client) {
        try {
            ApiScope s = scope;
            if (s == null) {
                return Watches.NOTHING_TO_WATCH;
            }
            UnmanagedClient kind = UnmanagedClient.valueOf(client);
            synchronized (Watches.BY_CLIENT) {
                return Watches.BY_CLIENT.computeIfAbsent(
                        kind, k -> new EscapeWatch(k, s, managedClients, AgentLog::warn));
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

    private static final class Watches {
        /** For a client that is not to be watched: the woven code stops asking at once. */
        static final BiPredicate<Object, Object> NOTHING_TO_WATCH = (first, second) -> true;

        static final Map<UnmanagedClient, EscapeWatch> BY_CLIENT = new EnumMap<>(UnmanagedClient.class);
    }
}
