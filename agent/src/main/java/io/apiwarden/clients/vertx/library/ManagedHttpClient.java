package io.apiwarden.clients.vertx.library;

import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.http.WebsocketVersion;
import io.vertx.core.net.SSLOptions;
import java.util.List;
import java.util.function.Function;

/**
 * Library mode's client: the app's, with every request made through {@link #request(RequestOptions)} handed to
 * the glue, which manages those to the API. The other overloads build their options as the client does and go
 * the same way; web sockets and the rest go to the client untouched.
 */
@SuppressWarnings("deprecation") // The client's own API, passed on as it is.
final class ManagedHttpClient implements HttpClient {
    private final HttpClient client;
    private final VertxHttpGlue glue;

    ManagedHttpClient(HttpClient client, VertxHttpGlue glue) {
        this.client = client;
        this.glue = glue;
    }

    @Override
    public Future<HttpClientRequest> request(RequestOptions options) {
        return glue.manage(client, options, client.request(options));
    }

    @Override
    public void request(RequestOptions options, Handler<AsyncResult<HttpClientRequest>> handler) {
        request(options).onComplete(handler);
    }

    @Override
    public void request(
            HttpMethod method,
            int port,
            String host,
            String requestURI,
            Handler<AsyncResult<HttpClientRequest>> handler) {
        request(method, port, host, requestURI).onComplete(handler);
    }

    @Override
    public Future<HttpClientRequest> request(HttpMethod method, int port, String host, String requestURI) {
        return request(new RequestOptions()
                .setMethod(method)
                .setPort(port)
                .setHost(host)
                .setURI(requestURI));
    }

    @Override
    public void request(
            HttpMethod method, String host, String requestURI, Handler<AsyncResult<HttpClientRequest>> handler) {
        request(method, host, requestURI).onComplete(handler);
    }

    @Override
    public Future<HttpClientRequest> request(HttpMethod method, String host, String requestURI) {
        return request(new RequestOptions().setMethod(method).setHost(host).setURI(requestURI));
    }

    @Override
    public void request(HttpMethod method, String requestURI, Handler<AsyncResult<HttpClientRequest>> handler) {
        request(method, requestURI).onComplete(handler);
    }

    @Override
    public Future<HttpClientRequest> request(HttpMethod method, String requestURI) {
        return request(new RequestOptions().setMethod(method).setURI(requestURI));
    }

    @Override
    public void webSocket(int port, String host, String requestURI, Handler<AsyncResult<WebSocket>> handler) {
        client.webSocket(port, host, requestURI, handler);
    }

    @Override
    public Future<WebSocket> webSocket(int port, String host, String requestURI) {
        return client.webSocket(port, host, requestURI);
    }

    @Override
    public void webSocket(String host, String requestURI, Handler<AsyncResult<WebSocket>> handler) {
        client.webSocket(host, requestURI, handler);
    }

    @Override
    public Future<WebSocket> webSocket(String host, String requestURI) {
        return client.webSocket(host, requestURI);
    }

    @Override
    public void webSocket(String requestURI, Handler<AsyncResult<WebSocket>> handler) {
        client.webSocket(requestURI, handler);
    }

    @Override
    public Future<WebSocket> webSocket(String requestURI) {
        return client.webSocket(requestURI);
    }

    @Override
    public void webSocket(WebSocketConnectOptions options, Handler<AsyncResult<WebSocket>> handler) {
        client.webSocket(options, handler);
    }

    @Override
    public Future<WebSocket> webSocket(WebSocketConnectOptions options) {
        return client.webSocket(options);
    }

    @Override
    public void webSocketAbs(
            String url,
            MultiMap headers,
            WebsocketVersion version,
            List<String> subProtocols,
            Handler<AsyncResult<WebSocket>> handler) {
        client.webSocketAbs(url, headers, version, subProtocols, handler);
    }

    @Override
    public Future<WebSocket> webSocketAbs(
            String url, MultiMap headers, WebsocketVersion version, List<String> subProtocols) {
        return client.webSocketAbs(url, headers, version, subProtocols);
    }

    @Override
    public Future<Boolean> updateSSLOptions(SSLOptions options, boolean force) {
        return client.updateSSLOptions(options, force);
    }

    @Override
    public HttpClient connectionHandler(Handler<HttpConnection> handler) {
        client.connectionHandler(handler);
        return this;
    }

    @Override
    public HttpClient redirectHandler(Function<HttpClientResponse, Future<RequestOptions>> handler) {
        client.redirectHandler(handler);
        return this;
    }

    @Override
    public Function<HttpClientResponse, Future<RequestOptions>> redirectHandler() {
        return client.redirectHandler();
    }

    @Override
    public void close(Handler<AsyncResult<Void>> handler) {
        client.close(handler);
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }

    @Override
    public boolean isMetricsEnabled() {
        return client.isMetricsEnabled();
    }
}
