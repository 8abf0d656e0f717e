package reactor.netty.http.client;

import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * For the glue's tests: the request publisher that {@code HttpClientConnect.connect()} returns,
 * the method the agent weaves. {@code connect()} is protected, hence this class in its package.
 */
public final class ConnectAccess {
    private ConnectAccess() {}

    public static Mono<? extends Connection> connect(HttpClient client) {
        return ((HttpClientConnect) client).connect();
    }
}
