package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;

/**
 * Apache HttpClient 5 managed without the agent (library mode), and what the agent's hook calls:
 * the agent's exec-chain handler goes on a builder before it builds its client, classic or async.
 *
 * <pre>{@code
 * WardenApacheHttp apache = WardenApacheHttp.create(warden);
 * CloseableHttpClient client = apache.manage(HttpClients.custom()).build();
 * client.execute(new HttpGet(url), handler);   // managed
 * CloseableHttpAsyncClient async = apache.manage(HttpAsyncClients.custom()).build();
 * async.execute(SimpleRequestBuilder.get(url).build(), callback);   // managed
 * }</pre>
 *
 * <p>Where the handler sits: below the client's redirect and retry handlers, so that each hop of a
 * redirect is a request of its own (only a hop to the API gets the agent's token) and each
 * resend is the agent's. In the classic chain it also sits above content decompression, so that an
 * error body it reads to classify is the body the server meant; a classic client built without
 * decompression has no such place, so the handler also sits just above the protocol handler, where
 * it lets the requests it sent itself pass. The async chain decompresses above its retry handler,
 * so there the handler sits just above the protocol handler, and decodes what it reads itself.
 */
public final class WardenApacheHttp {
    static final String HANDLER = "apiwarden";
    static final String FALLBACK_HANDLER = "apiwarden-without-decompression";
    /** Where the app's async callback goes on after an agent's wait: where {@code CompletableFuture}'s own async steps run. */
    private static final Executor ASYNC_POOL = new CompletableFuture<Void>().defaultExecutor();

    private final ClassicHandler classic;
    private final AsyncHandler async;
    /** Builders handled already: building twice from one builder must not add the handler twice. */
    private final Set<Object> managed = Collections.newSetFromMap(Collections.synchronizedMap(new WeakHashMap<>()));

    private WardenApacheHttp(Wardens wardens, Executor completions) {
        this.classic = new ClassicHandler(wardens);
        this.async = new AsyncHandler(wardens, completions);
    }

    /** One per {@link Warden} is enough for every client of the same Apache HttpClient. */
    public static WardenApacheHttp create(Warden warden) {
        return new WardenApacheHttp(warden, ASYNC_POOL);
    }

    /** For the APIs {@code wardens} routes to (the agent's router): each request gets its API's Warden. */
    public static WardenApacheHttp create(Wardens wardens) {
        return new WardenApacheHttp(wardens, ASYNC_POOL);
    }

    /** For tests: where the app's async callback goes on after a wait. */
    static WardenApacheHttp create(Warden warden, Executor completions) {
        return new WardenApacheHttp(warden, completions);
    }

    /** Puts the agent's handler into the exec chain of the clients {@code builder} builds (once per builder). */
    public HttpClientBuilder manage(HttpClientBuilder builder) {
        if (managed.add(builder)) {
            builder.addExecInterceptorBefore(ChainElement.COMPRESS.name(), HANDLER, classic);
            builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), FALLBACK_HANDLER, classic);
        }
        return builder;
    }

    /** Puts the agent's handler into the exec chain of the async clients {@code builder} builds (once per builder). */
    public HttpAsyncClientBuilder manage(HttpAsyncClientBuilder builder) {
        if (managed.add(builder)) {
            builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), HANDLER, async);
        }
        return builder;
    }

    /** Puts the agent's handler into the exec chain of the HTTP/2 async clients {@code builder} builds (once per builder). */
    public H2AsyncClientBuilder manage(H2AsyncClientBuilder builder) {
        if (managed.add(builder)) {
            builder.addExecInterceptorBefore(ChainElement.PROTOCOL.name(), HANDLER, async);
        }
        return builder;
    }
}
