package io.apiwarden.clients.jetty.bridge;

/**
 * What the agent asks of its Jetty client glue. The glue is compiled against Jetty 12 and defined once
 * per class loader Jetty lives in; this interface, loaded once by the agent's loader, lets the agent
 * call every copy without reflection.
 */
public interface JettyBridge {
    /**
     * At the start of {@code HttpRequest.send(listener)}, with the request's client: whether the agent took the request on (the
     * method then returns at once), or the request goes on as without the agent.
     */
    boolean send(Object request, Object client, Object listener);

    /** At the start of {@code HttpRequest.abort(cause)}: the app gives up a request the agent may be running. */
    void aborted(Object request, Object cause);
}
