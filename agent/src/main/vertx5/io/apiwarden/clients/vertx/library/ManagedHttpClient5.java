package io.apiwarden.clients.vertx.library;

import io.vertx.core.Future;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientConnection;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpConnectOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.metrics.Measured;
import io.vertx.core.net.ClientSSLOptions;
import java.time.Duration;

/**
 * Library mode's client on Vert.x 5, the counterpart of 4.5's {@link ManagedHttpClient}: the app's client, with
 * every request made through {@link #request(RequestOptions)} handed to the glue, which manages those to the API.
 * 5's other {@code request} overloads are {@code HttpClient}'s defaults, which build their options and come here.
 * It is an {@code HttpClientAgent}, as 5's {@code createHttpClient()} returns; what only an agent has (a
 * connection of the app's own, new TLS options) goes to the app's client when it is one. Requests made on a
 * connection from {@link #connect} are the app's own, unmanaged (docs/architecture.md, Vert.x's limits).
 * Compiled against Vert.x 5 (the agent's pom, {@code vertx5}); made by {@link VertxLine} only on Vert.x 5.
 */
final class ManagedHttpClient5 implements HttpClientAgent {
    private final HttpClient client;
    private final VertxHttpGlue glue;

    ManagedHttpClient5(HttpClient client, VertxHttpGlue glue) {
        this.client = client;
        this.glue = glue;
    }

    @Override
    public Future<HttpClientRequest> request(RequestOptions options) {
        return glue.manage(client, options, client.request(options));
    }

    @Override
    public Future<Void> shutdown(Duration timeout) {
        return client.shutdown(timeout);
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }

    @Override
    public Future<Boolean> updateSSLOptions(ClientSSLOptions options, boolean force) {
        if (client instanceof HttpClientAgent) {
            return ((HttpClientAgent) client).updateSSLOptions(options, force);
        }
        return notAnAgent("updateSSLOptions");
    }

    @Override
    public Future<HttpClientConnection> connect(HttpConnectOptions options) {
        if (client instanceof HttpClientAgent) {
            return ((HttpClientAgent) client).connect(options);
        }
        return notAnAgent("connect");
    }

    @Override
    public boolean isMetricsEnabled() {
        return client instanceof Measured && ((Measured) client).isMetricsEnabled();
    }

    private <T> Future<T> notAnAgent(String method) {
        return Future.failedFuture(new UnsupportedOperationException("the HttpClient given to WardenVertxHttp.manage"
                + " is a " + client.getClass().getName() + ", not an HttpClientAgent: it has no " + method
                + "; call it on the client itself"));
    }
}
