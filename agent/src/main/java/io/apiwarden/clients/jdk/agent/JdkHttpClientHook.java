package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.AgentRuntime;
import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.clients.jdk.library.InternalClients;
import io.apiwarden.clients.jdk.library.WardenHttpClient;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.log.AgentLog;
import java.net.http.HttpClient;

/**
 * What the advice in {@code HttpClientBuilderImpl.build()} calls: wraps every client the app
 * builds. Public and static because the advice, running inside {@code java.net.http}, reaches it
 * by reflection through the system class loader, where the agent jar lives.
 */
public final class JdkHttpClientHook {

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new JdkModule());

    private JdkHttpClientHook() {}

    /** Returns the client to hand to the app; on any failure the one the JDK built. */
    public static HttpClient wrap(HttpClient built) {
        try {
            if (built == null || InternalClients.isBuilding()) {
                return built;
            }
            Wardens wardens = AgentRuntime.router();
            if (wardens == null) {
                return built;
            }
            HttpClient wrapped = WardenHttpClient.wrap(built, wardens);
            IN_USE.seen();
            return wrapped;
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "jdk-hook",
                    "an HttpClient could not be wrapped; it works without the agent",
                    t);
            return built;
        }
    }
}
