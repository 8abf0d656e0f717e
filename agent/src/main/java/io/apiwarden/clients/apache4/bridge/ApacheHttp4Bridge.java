package io.apiwarden.clients.apache4.bridge;

/**
 * What the agent asks of its Apache HttpClient 4 glue. The glue is compiled against the client and
 * defined once per class loader that the client lives in; this interface, loaded once by the agent's
 * loader, lets the agent call every copy without reflection.
 */
public interface ApacheHttp4Bridge {
    /**
     * The exec chain a builder is about to put its retry and redirect steps on, with the agent's step on
     * top (a {@code ClientExecChain}, typed {@code Object} here, as this interface knows no client class).
     */
    Object decorateProtocolExec(Object protocolExec);
}
