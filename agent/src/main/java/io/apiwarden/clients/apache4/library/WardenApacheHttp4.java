package io.apiwarden.clients.apache4.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.impl.execchain.ClientExecChain;

/**
 * Apache HttpClient 4 managed without the agent (library mode), and what the agent's hook calls: the
 * agent's step goes on the exec chain a builder assembles, just above its protocol step.
 *
 * <pre>{@code
 * WardenApacheHttp4 apache = WardenApacheHttp4.create(warden);
 * CloseableHttpClient client = apache.builder().build();   // in place of HttpClients.custom()...build()
 * client.execute(new HttpGet(url));                        // managed
 * }</pre>
 *
 * <p>HttpClient 4's builder has no public way to add a step to its chain, only the protected
 * {@code decorateProtocolExec}, so library mode hands out a builder that overrides it ({@link #builder});
 * an app with a builder subclass of its own returns {@link #decorate} from its override.
 *
 * <p>Where the step sits: on the protocol step ({@code ProtocolExec}: default headers, cookies, the
 * client's authentication cache and content decompression), below the client's {@code RetryExec},
 * {@code ServiceUnavailableRetryExec} and {@code RedirectExec}. So each hop of a redirect is a request of
 * its own (only a hop to the API gets the agent's token), each resend is the agent's, and an error body
 * it reads is decompressed already.
 */
public final class WardenApacheHttp4 {
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    private WardenApacheHttp4(Wardens wardens) {
        this.wardens = wardens;
    }

    /** One per {@link Warden} is enough for every client of the same Apache HttpClient 4. */
    public static WardenApacheHttp4 create(Warden warden) {
        return new WardenApacheHttp4(warden);
    }

    /** For the APIs {@code wardens} routes to (the agent's router): each request gets its API's Warden. */
    public static WardenApacheHttp4 create(Wardens wardens) {
        return new WardenApacheHttp4(wardens);
    }

    /** A builder as {@code HttpClients.custom()} gives, whose clients are managed. */
    public HttpClientBuilder builder() {
        return new HttpClientBuilder() {
            @Override
            protected ClientExecChain decorateProtocolExec(ClientExecChain protocolExec) {
                return decorate(super.decorateProtocolExec(protocolExec));
            }
        };
    }

    /** {@code protocolExec} with the agent's step on top: what an override of {@code decorateProtocolExec} returns. */
    public ClientExecChain decorate(ClientExecChain protocolExec) {
        return new WardenExec(wardens, protocolExec);
    }
}
