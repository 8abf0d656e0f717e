package io.apiwarden.clients.apache5.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.apache5.bridge.ApacheHttpBridge;
import io.apiwarden.core.log.AgentLog;
import java.util.List;

/**
 * What the code woven into Apache HttpClient 5's builders calls. The client lives in a loader that
 * can see the agent's (the system loader or one of its children), so the woven code links here
 * directly. Every failure is swallowed: the client then works as without the agent.
 */
public final class ApacheHttpHook {
    private static final Glues<ApacheHttpBridge> GLUES =
            new Glues<>("io.apiwarden.clients.apache5.library.", "ApacheHttpGlue", ApacheHttpBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new Apache5Module());

    private ApacheHttpHook() {}

    /** The glue's first call's classes, defined and linked ahead beside the library in {@code libraryLoader}. */
    static void prepare(ClassLoader libraryLoader, List<String> glueClasses) {
        GLUES.prepare(libraryLoader, glueClasses);
    }

    /** Before a client, classic or async, is built from {@code builder}. */
    public static void beforeBuild(Object builder) {
        try {
            ApacheHttpBridge glue = GLUES.of(builder.getClass());
            if (glue != null) {
                glue.beforeBuild(builder);
                IN_USE.seen();
            }
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "apache-httpclient-build",
                    "an Apache HttpClient could not be managed; it works without the agent",
                    t);
        }
    }
}
