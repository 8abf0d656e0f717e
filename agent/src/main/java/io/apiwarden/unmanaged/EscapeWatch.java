package io.apiwarden.unmanaged;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.scope.ApiScope;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiPredicate;
import java.util.function.Consumer;

/**
 * Watches the calls of one {@link UnmanagedClient} for the first that goes to an API, and names the
 * client (and, with several, the API) in a warning then, once per JVM. Each call is asked about each API until
 * then; there are few.
 *
 * <p>{@link #test} answers whether the watch is over: the code woven into the client keeps a flag of its
 * own and stops calling once it is, so after the warning (or a failure here) each call through the
 * client costs a read of that flag.
 */
public final class EscapeWatch implements BiPredicate<Object, Object> {
    private final UnmanagedClient client;
    private final List<WatchedApi> apis;
    private final String managedClients;
    private final Consumer<String> warnings;
    private final AtomicBoolean over = new AtomicBoolean();

    /**
     * A watch that gives its warning to {@code warnings} ({@code AgentLog::warn} in the agent).
     *
     * @param managedClients the clients the agent manages, as the warning names them ("OkHttp or Reactor Netty")
     */
    public EscapeWatch(UnmanagedClient client, ApiScope scope, String managedClients, Consumer<String> warnings) {
        this(client, List.of(WatchedApi.only(scope)), managedClients, warnings);
    }

    /** A watch of the calls to any of {@code apis}. */
    public EscapeWatch(
            UnmanagedClient client, List<WatchedApi> apis, String managedClients, Consumer<String> warnings) {
        this.client = client;
        this.apis = List.copyOf(apis);
        this.managedClients = managedClients;
        this.warnings = warnings;
    }

    /**
     * Called with the arguments of a watched call; true when nothing more is to be done for this client.
     * Never throws: a failure ends the watch with a debug line.
     */
    @Override
    public boolean test(Object first, Object second) {
        if (over.get()) {
            return true;
        }
        try {
            WatchedApi called = null;
            for (WatchedApi api : apis) {
                if (client.callsApi(api.scope, first, second)) {
                    called = api;
                    break;
                }
            }
            if (called == null) {
                return false;
            }
            if (over.compareAndSet(false, true)) {
                warnings.accept(warning(client, called, managedClients));
            }
        } catch (Throwable t) {
            if (over.compareAndSet(false, true)) {
                AgentLog.debug("calls through " + client.displayName()
                        + " cannot be watched for the API; no warning will name them ("
                        + t.getClass().getName() + ")");
            }
        }
        return true;
    }

    /** The warning: which client, what it misses, what to do. Names the origin only, never a path or query. */
    static String warning(UnmanagedClient client, WatchedApi api, String managedClients) {
        return "a call to " + api.origin() + " went out through " + client.displayName()
                + ", which the agent does not manage: calls to " + api.theApi()
                + " through it get no bearer token, no refresh,"
                + " no back-off on rate limits and no spans. Send them through a managed client: " + managedClients
                + " (for Spring: the auto-configured"
                + " RestClient, RestTemplate or WebClient on any of these), or switch this warning off with "
                + ConfigProperty.UNMANAGED_WARNINGS_ENABLED.key() + "=false. Said once per client library.";
    }
}
