package io.apiwarden.clients.micronaut.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.micronaut.bridge.MicronautBridge;
import io.apiwarden.core.log.AgentLog;
import java.util.List;

/**
 * What the code woven into Micronaut's {@code DefaultHttpClient} calls. Micronaut lives in a loader that can see the
 * agent's (the system loader, a fat jar's), so the woven code links here directly. Every failure is swallowed and
 * the filters go as Micronaut resolved them: the request then goes as without the agent.
 */
public final class MicronautHook {
    private static final Glues<MicronautBridge> GLUES =
            new Glues<>("io.apiwarden.clients.micronaut.library.", "MicronautGlue", MicronautBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstRequest(new MicronautModule());

    private MicronautHook() {}

    /** After {@code filterResolver.resolveFilters(...)} in {@code sendRequestWithRedirects}: the filters to run instead. */
    public static List<?> filters(List<?> resolved, Object client, Object propagatedContext, Object request) {
        try {
            MicronautBridge glue = GLUES.of(client.getClass());
            if (glue == null) {
                return resolved;
            }
            IN_USE.seen();
            return glue.filters(resolved, client, propagatedContext, request);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "micronaut-filters",
                    "a Micronaut client request could not be managed; it goes out as without the agent",
                    t);
            return resolved;
        }
    }
}
