package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.scope.ApiScope;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import reactor.netty.Connection;
import reactor.netty.channel.ChannelOperations;
import reactor.netty.http.client.HttpClientResponse;

/**
 * One attempt's response: Reactor Netty's connection once status and headers are in, classified
 * and judged. The body is left unread for the app, so a response the agent does not resend goes
 * to the app exactly as Reactor Netty emitted it.
 */
final class NettyAttempt extends JudgedAttempt<Connection>
        implements Attempt.Async<Connection>, Judge.BodyPrefix, Function<String, List<String>> {
    private static final String AUTHORIZATION = "Authorization";

    private final Connection connection;
    private final HttpClientResponse response;

    NettyAttempt(NettyExchange exchange, Connection connection, AttemptSpec spec, Judge judge, ApiScope scope) {
        this.connection = connection;
        this.response = (HttpClientResponse) connection;
        judge(judge, this, onTheWire(exchange, spec));
    }

    /** What went out, as Reactor Netty sent it: the policy decides what that means for a resend. */
    private OnTheWire onTheWire(NettyExchange exchange, AttemptSpec spec) {
        if (!spec.answeredInScope(response)) {
            return OnTheWire.LEFT_THE_API;
        }
        if (appsOwnAuthorization(spec)) {
            // Set by the app's body function after the agent's (Spring's per-request headers): the next attempts know.
            exchange.sawAppAuthorization();
            return OnTheWire.APP_AUTHORIZATION;
        }
        return OnTheWire.AS_PREPARED;
    }

    private boolean appsOwnAuthorization(AttemptSpec spec) {
        if (spec.agentAuthorization == null) {
            return false;
        }
        String sent = response.requestHeaders().get(AUTHORIZATION);
        return sent != null && !sent.equals(spec.agentAuthorization);
    }

    /**
     * Reactor Netty has no way to look at a body and leave it whole for the app, so an error that
     * status and headers leave open is classified by its status (the engine's rule for a body that
     * cannot be read). The spec's two errors are a 401 and a 429, which need no body.
     */
    @Override
    public byte[] read(int limit) throws IOException {
        throw new IOException("a Reactor Netty response body is left for the app");
    }

    @Override
    public int status() {
        return response.status().code();
    }

    @Override
    public String protocolVersion() {
        HttpVersion v = response.version();
        if (v.majorVersion() >= 2) {
            return String.valueOf(v.majorVersion());
        }
        return v.minorVersion() == 0 ? "1.0" : "1.1";
    }

    @Override
    public Function<String, List<String>> headers() {
        // The attempt is its own look-up: asked three times per attempt, a method reference would be made each time.
        return this;
    }

    @Override
    public List<String> apply(String name) {
        return valuesOf(response.responseHeaders(), name);
    }

    /**
     * The values of a header, none when absent. Netty's {@code getAll} wraps a new list on every look, and most looks
     * (a challenge, the rate-limit headers) are for headers a response does not have.
     */
    static List<String> valuesOf(HttpHeaders headers, String name) {
        return headers.contains(name) ? headers.getAll(name) : List.of();
    }

    @Override
    public String retryAfter() {
        return response.responseHeaders().get("Retry-After");
    }

    @Override
    public Connection deliveredNow() {
        return connection;
    }

    @Override
    public CompletionStage<Connection> deliverAsync() {
        return CompletableFuture.completedFuture(connection);
    }

    /** Drops the body as Reactor Netty's own {@code response()} does, so the connection goes back to the pool once it is read. */
    @Override
    public void discard() {
        try {
            if (connection instanceof ChannelOperations) {
                ChannelOperations<?, ?> ops = (ChannelOperations<?, ?>) connection;
                if (!ops.isInboundDisposed()) {
                    ops.discard();
                }
            } else {
                connection.dispose();
            }
        } catch (RuntimeException e) {
            connection.dispose();
        }
    }
}
