package io.apiwarden.clients.huc.agent;

import io.apiwarden.agent.AgentRuntime;
import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.clients.huc.library.RawConnections;
import io.apiwarden.clients.huc.library.WardenHttpUrlConnection;
import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.log.AgentLog;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URL;
import java.net.URLConnection;

/**
 * What the code woven into the JDK's http and https URL handlers calls with each connection they make:
 * the connection to give the app. Public and static because the woven code, inside {@code java.base},
 * reaches it by reflection through the system class loader, where the agent jar lives.
 */
public final class HucHook {
    private static final ClientsInUse IN_USE = ClientsInUse.onFirstRequest(new HttpUrlConnectionModule());
    /**
     * Set while this thread is in the hook: a connection opened meanwhile (starting the runtime, say) is
     * left alone, so the hook never runs inside itself.
     */
    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();

    private HucHook() {}

    /**
     * A managed connection for a URL of the API; {@code opened} itself for any other URL, for the agent's own
     * connections (each attempt of a managed call), and on any failure.
     */
    public static URLConnection open(URLConnection opened, URL url, Proxy proxy) {
        if (!(opened instanceof HttpURLConnection) || RawConnections.isOpening() || INSIDE.get() != null) {
            return opened;
        }
        INSIDE.set(Boolean.TRUE);
        try {
            Wardens router = AgentRuntime.router();
            // Routed before any API's runtime starts: a JVM that opens other URLs only never starts one.
            Warden warden = router == null
                    ? null
                    : router.forRequest(url.getProtocol(), url.getHost(), url.getPort(), url.getPath());
            if (warden == null) {
                return opened;
            }
            URLConnection managed = WardenHttpUrlConnection.manage(opened, url, proxy, warden);
            if (managed != opened) {
                IN_USE.seen();
            }
            return managed;
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "huc-hook",
                    "an HttpURLConnection could not be managed; it works without the agent",
                    t);
            return opened;
        } finally {
            INSIDE.remove();
        }
    }
}
