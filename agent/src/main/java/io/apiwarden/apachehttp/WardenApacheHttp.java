package io.apiwarden.apachehttp;

import io.apiwarden.core.Warden;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Apache HttpClient 5 managed without the agent (library mode), and what the agent's hook calls:
 * the agent's exec-chain handler goes on a builder before it builds its client.
 *
 * <pre>{@code
 * WardenApacheHttp apache = WardenApacheHttp.create(warden);
 * CloseableHttpClient client = apache.manage(HttpClients.custom()).build();
 * client.execute(new HttpGet(url), handler);   // managed
 * }</pre>
 *
 * <p>Where the handler sits: below the client's redirect and retry handlers, so that each hop of a
 * redirect is a request of its own (only a hop to the API gets the agent's token) and each
 * resend is the agent's; above its content decompression, so that an error body it reads to
 * classify is the body the server meant. A client built without decompression has no such
 * place, so the handler also sits just above the protocol handler, where it lets the requests it
 * sent itself pass.
 */
public final class WardenApacheHttp {
    static final String HANDLER = "apiwarden";
    static final String FALLBACK_HANDLER = "apiwarden-without-decompression";

    private final ClassicHandler classic;
    /** Builders handled already: building twice from one builder must not add the handler twice. */
    private final Set<Object> managed = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));

    private WardenApacheHttp(Warden warden) {
        this.classic = new ClassicHandler(warden);
    }

    /** One per {@link Warden} is enough for every client of the same Apache HttpClient. */
    public static WardenApacheHttp create(Warden warden) {
        return new WardenApacheHttp(warden);
    }

    /** Puts the agent's handler into the exec chain of the clients {@code builder} builds (once per builder). */
    public HttpClientBuilder manage(HttpClientBuilder builder) {
        if (managed.add(builder)) {
            builder.addExecInterceptorBefore(ChainElement.COMPRESS.name(), HANDLER, classic);
            builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), FALLBACK_HANDLER, classic);
        }
        return builder;
    }
}
