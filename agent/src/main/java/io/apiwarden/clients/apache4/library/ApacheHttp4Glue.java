package io.apiwarden.clients.apache4.library;

import io.apiwarden.clients.apache4.bridge.ApacheHttp4Bridge;
import io.apiwarden.core.Wardens;
import org.apache.http.impl.execchain.ClientExecChain;

/**
 * The agent's entry into one copy of Apache HttpClient 4: the call woven into its builder, passed on
 * to {@link WardenApacheHttp4}. Defined by the agent in a class loader whose parent is the client's
 * own, so that it links to the app's copy whatever loader that is.
 */
public final class ApacheHttp4Glue implements ApacheHttp4Bridge {
    private final WardenApacheHttp4 apache;

    public ApacheHttp4Glue(Wardens wardens) {
        this.apache = WardenApacheHttp4.create(wardens);
    }

    @Override
    public Object decorateProtocolExec(Object protocolExec) {
        return apache.decorate((ClientExecChain) protocolExec);
    }
}
