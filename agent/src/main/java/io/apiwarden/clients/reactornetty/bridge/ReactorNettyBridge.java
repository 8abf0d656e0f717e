package io.apiwarden.clients.reactornetty.bridge;

/**
 * What the agent asks of its Reactor Netty glue. The glue is compiled against Reactor Netty and
 * defined once per class loader that Reactor Netty lives in; this interface, loaded once by the
 * agent's loader, lets the agent call every copy without reflection.
 */
public interface ReactorNettyBridge {
    /**
     * The publisher a request of {@code client} (a {@code reactor.netty.http.client.HttpClient})
     * answers with: {@code connect} (its {@code Mono<Connection>}) as it is for a request outside
     * the API, or a managed one that resends by subscribing to it again.
     */
    Object onConnect(Object client, Object connect);

    /** Loads what a managed request needs, so that the app's first request does not: called off the app's threads. */
    void prepare();

    /** A client's connection observer ({@code ConnectionObserver}) with the one that sets each attempt's headers after it. */
    Object observer(Object observer);
}
