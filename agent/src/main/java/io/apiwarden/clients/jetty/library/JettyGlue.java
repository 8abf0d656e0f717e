package io.apiwarden.clients.jetty.library;

import io.apiwarden.clients.jetty.bridge.JettyBridge;
import io.apiwarden.core.Wardens;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpRequest;

/**
 * The agent's entry into one copy of Jetty's client: the calls woven into {@code HttpRequest}, passed on
 * to {@link WardenJettyHttp}. Defined by the agent in a class loader whose parent is Jetty's own, so
 * that it links to the app's copy whatever loader that is.
 */
public final class JettyGlue implements JettyBridge {
    private final WardenJettyHttp jetty;

    public JettyGlue(Wardens wardens) {
        this.jetty = WardenJettyHttp.create(wardens);
    }

    @Override
    public boolean send(Object request, Object client, Object listener) {
        return jetty.send((HttpRequest) request, (HttpClient) client, (Response.CompleteListener) listener);
    }

    @Override
    public void aborted(Object request, Object cause) {
        jetty.aborted((HttpRequest) request, (Throwable) cause);
    }
}
