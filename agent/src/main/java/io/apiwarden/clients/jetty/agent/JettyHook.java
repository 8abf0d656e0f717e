package io.apiwarden.clients.jetty.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.jetty.bridge.JettyBridge;
import io.apiwarden.core.log.AgentLog;

/**
 * What the code woven into Jetty's {@code HttpRequest} calls. Jetty lives in a loader that can see the
 * agent's (the system loader or one of its children), so the woven code links here directly. Every
 * failure is swallowed: the request then goes as without the agent.
 */
public final class JettyHook {
    private static final Glues<JettyBridge> GLUES =
            new Glues<>("io.apiwarden.clients.jetty.library.", "JettyGlue", JettyBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new JettyModule());

    private JettyHook() {}

    /** At the start of {@code send(listener)}: true when the agent runs the request from here, and the method is to return. */
    public static boolean send(Object request, Object client, Object listener) {
        try {
            JettyBridge glue = GLUES.of(request.getClass());
            if (glue == null) {
                return false;
            }
            IN_USE.seen();
            return glue.send(request, client, listener);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "jetty-send",
                    "a Jetty client request could not be managed; it goes out as without the agent",
                    t);
            return false;
        }
    }

    /** At the start of {@code abort(cause)}: passes the app's abort on to the agent's call for the request. */
    public static void aborted(Object request, Object cause) {
        try {
            JettyBridge glue = GLUES.of(request.getClass());
            if (glue != null) {
                glue.aborted(request, cause);
            }
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN, "jetty-abort", "an abort could not be passed on to a managed Jetty call", t);
        }
    }
}
