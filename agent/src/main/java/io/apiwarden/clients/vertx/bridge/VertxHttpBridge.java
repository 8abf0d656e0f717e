package io.apiwarden.clients.vertx.bridge;

/**
 * What the agent asks of its Vert.x glue. The glue is compiled against Vert.x core and defined once per
 * class loader Vert.x lives in; this interface, loaded once by the agent's loader, lets the agent call
 * every copy without reflection.
 */
public interface VertxHttpBridge {
    /**
     * The future {@code HttpClient.request(RequestOptions)} of {@code client} answers with:
     * {@code future} as it is for a request outside the API, or one of the request the agent manages.
     */
    Object onRequest(Object client, Object options, Object future);

    /**
     * The handler {@code HttpClient.request(RequestOptions, Handler)} of {@code client} hands the request
     * to: {@code handler} as it is for a request outside the API, or one that gets the managed request.
     */
    Object onRequestHandler(Object client, Object options, Object handler);
}
