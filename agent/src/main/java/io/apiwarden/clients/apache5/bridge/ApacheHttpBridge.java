package io.apiwarden.clients.apache5.bridge;

/**
 * What the agent asks of its Apache HttpClient 5 glue. The glue is compiled against the client
 * and defined once per class loader that the client lives in; this interface, loaded once by the
 * agent's loader, lets the agent call every copy without reflection.
 */
public interface ApacheHttpBridge {
    /** Adds the agent's exec-chain handler to a builder about to build a client (classic or async), once per builder. */
    void beforeBuild(Object builder);
}
