package io.apiwarden.clients.ktor.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.ktor.bridge.KtorBridge;
import io.apiwarden.core.log.AgentLog;

/**
 * What the code woven into Ktor's CIO engine calls. Ktor lives in a loader that can see the agent's (the system
 * loader, a fat jar's), so the woven code links here directly. Every failure is swallowed and the engine goes on as
 * without the agent.
 */
public final class KtorHook {
    private static final Glues<KtorBridge> GLUES =
            new Glues<>("io.apiwarden.clients.ktor.library.", "KtorGlue", KtorBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstRequest(new KtorModule());

    private KtorHook() {}

    /** At the start of {@code CIOEngine.execute}: what it returns instead, or null to run it as it is. */
    public static Object execute(Object engine, Object request, Object continuation) {
        try {
            KtorBridge glue = GLUES.of(engine.getClass());
            if (glue == null) {
                return null;
            }
            IN_USE.seen();
            return glue.execute(engine, request, continuation);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "ktor-execute",
                    "a Ktor call could not be managed; it goes out as without the agent",
                    t);
            return null;
        }
    }
}
