package io.apiwarden.clients.micronaut.bridge;

import java.util.List;

/**
 * What the agent asks of its Micronaut client glue. The glue is compiled against Micronaut's HTTP client 4 and
 * defined once per class loader Micronaut lives in; this interface, loaded once by the agent's loader, lets the
 * agent call every copy without reflection.
 */
public interface MicronautBridge {
    /**
     * In {@code DefaultHttpClient.sendRequestWithRedirects}, with the filters Micronaut resolved for one request
     * (a redirect hop included), the client and the request's propagated context: the list to run, with the
     * agent's filter innermost when the request is the API's or a hop of one of the agent's attempts.
     */
    List<?> filters(List<?> resolved, Object client, Object propagatedContext, Object request);
}
