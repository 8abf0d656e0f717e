package io.apiwarden.clients.jdk.library;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import javax.net.ssl.SSLSession;

/**
 * The response the app gets: the final attempt's status, headers and the app's own body, with
 * the app's own request. The request the agent sent (with its token) never reaches the app.
 */
final class AppResponse<T> implements HttpResponse<T> {
    private final HttpResponse<?> wire;
    private final HttpRequest appRequest;
    private final T body;

    AppResponse(HttpResponse<?> wire, HttpRequest appRequest, T body) {
        this.wire = wire;
        this.appRequest = appRequest;
        this.body = body;
    }

    @Override
    public int statusCode() {
        return wire.statusCode();
    }

    @Override
    public HttpRequest request() {
        return appRequest;
    }

    /** Empty: the agent sends managed attempts without automatic redirects, so there is no earlier hop. */
    @Override
    public Optional<HttpResponse<T>> previousResponse() {
        return Optional.empty();
    }

    @Override
    public HttpHeaders headers() {
        return wire.headers();
    }

    @Override
    public T body() {
        return body;
    }

    @Override
    public Optional<SSLSession> sslSession() {
        return wire.sslSession();
    }

    @Override
    public URI uri() {
        return wire.uri();
    }

    @Override
    public HttpClient.Version version() {
        return wire.version();
    }

    @Override
    public String toString() {
        return "(" + appRequest.method() + " " + wire.uri() + ") " + wire.statusCode();
    }
}
