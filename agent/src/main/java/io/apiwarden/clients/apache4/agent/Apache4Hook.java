package io.apiwarden.clients.apache4.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.apache4.bridge.ApacheHttp4Bridge;
import io.apiwarden.core.log.AgentLog;

/**
 * What the code woven into Apache HttpClient 4's builder calls. The client lives in a loader that can
 * see the agent's (the system loader or one of its children), so the woven code links here directly.
 * Every failure is swallowed: the client is then built as without the agent.
 */
public final class Apache4Hook {
    private static final Glues<ApacheHttp4Bridge> GLUES =
            new Glues<>("io.apiwarden.clients.apache4.library.", "ApacheHttp4Glue", ApacheHttp4Bridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new Apache4Module());

    private Apache4Hook() {}

    /**
     * The protocol step {@code builder} has just decorated, with the agent's step on top; {@code protocolExec}
     * itself when the agent is not configured or fails.
     */
    public static Object decorateProtocolExec(Object protocolExec, Object builder) {
        try {
            ApacheHttp4Bridge glue = GLUES.of(builder.getClass());
            if (glue != null) {
                Object managed = glue.decorateProtocolExec(protocolExec);
                IN_USE.seen();
                return managed;
            }
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "apache-httpclient4-build",
                    "an Apache HttpClient 4 client could not be managed; it works without the agent",
                    t);
        }
        return protocolExec;
    }
}
