package io.apiwarden.clients.vertx.library;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamPriority;
import io.vertx.core.net.HostAndPort;
import java.util.function.Function;

/**
 * The managed request's headers and settings, the app's, as its client's request keeps them: settings go on to the
 * client's own request (the first attempt, the template of the others), the app's headers are kept apart, so the
 * agent's never show in {@link #headers()}. Version-neutral, as {@link ManagedClientRequest}: every method here has
 * one descriptor on Vert.x 4.5 and 5.
 */
abstract class ClientRequestSettings implements HttpClientRequest {
    /** The client's own request: the first attempt, and the template of the others. */
    final HttpClientRequest first;

    final MultiMap appHeaders;
    /** The app's own time limit in milliseconds (its request's time-out), or -1. */
    private volatile long appTimeoutMillis;

    private volatile Handler<Throwable> exceptionHandler;
    private volatile Handler<HttpClientRequest> pushHandler;
    private volatile Handler<Void> continueHandler;
    private volatile Handler<MultiMap> earlyHintsHandler;

    ClientRequestSettings(HttpClientRequest first, RequestOptions options) {
        this.first = first;
        this.appHeaders = HttpHeaders.headers().addAll(first.headers());
        long limit = options.getTimeout() >= 0 ? options.getTimeout() : options.getIdleTimeout();
        this.appTimeoutMillis = limit > 0 ? limit : -1;
    }

    final long appTimeoutMillis() {
        return appTimeoutMillis;
    }

    final Handler<Throwable> exceptionHandler() {
        return exceptionHandler;
    }

    /** Puts the app's settings of its request on another attempt's. */
    void copySettingsTo(HttpClientRequest real) {
        real.setMaxRedirects(first.getMaxRedirects());
        real.setChunked(first.isChunked());
        if (first.traceOperation() != null) {
            real.traceOperation(first.traceOperation());
        }
        if (pushHandler != null) {
            real.pushHandler(pushHandler);
        }
        if (continueHandler != null) {
            real.continueHandler(continueHandler);
        }
        if (earlyHintsHandler != null) {
            real.earlyHintsHandler(earlyHintsHandler);
        }
    }

    long declaredLength() {
        String length = appHeaders.get(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The app's time limit for the whole call (docs/architecture.md, Vert.x): 4.5's {@code setTimeout}. */
    final void appTimeout(long timeout) {
        appTimeoutMillis = timeout > 0 ? timeout : -1;
    }

    // ---------------------------------------------------------------------------------------------
    // Headers and settings: the app's, as its client's request keeps them.

    @Override
    public MultiMap headers() {
        return appHeaders;
    }

    @Override
    public HttpClientRequest putHeader(String name, String value) {
        appHeaders.set(name, value);
        return this;
    }

    @Override
    public HttpClientRequest putHeader(CharSequence name, CharSequence value) {
        appHeaders.set(name, value);
        return this;
    }

    @Override
    public HttpClientRequest putHeader(String name, Iterable<String> values) {
        appHeaders.set(name, values);
        return this;
    }

    @Override
    public HttpClientRequest putHeader(CharSequence name, Iterable<CharSequence> values) {
        appHeaders.set(name, values);
        return this;
    }

    @Override
    public HttpClientRequest exceptionHandler(Handler<Throwable> handler) {
        exceptionHandler = handler;
        return this;
    }

    @Override
    public HttpClientRequest authority(HostAndPort authority) {
        first.authority(authority);
        return this;
    }

    @Override
    public HttpClientRequest setFollowRedirects(boolean followRedirects) {
        first.setFollowRedirects(followRedirects);
        return this;
    }

    @Override
    public boolean isFollowRedirects() {
        return first.isFollowRedirects();
    }

    @Override
    public HttpClientRequest setMaxRedirects(int maxRedirects) {
        first.setMaxRedirects(maxRedirects);
        return this;
    }

    @Override
    public int getMaxRedirects() {
        return first.getMaxRedirects();
    }

    @Override
    public int numberOfRedirections() {
        return first.numberOfRedirections();
    }

    @Override
    public HttpClientRequest setChunked(boolean chunked) {
        first.setChunked(chunked);
        return this;
    }

    @Override
    public boolean isChunked() {
        return first.isChunked();
    }

    @Override
    public HttpMethod getMethod() {
        return first.getMethod();
    }

    @Override
    public HttpClientRequest setMethod(HttpMethod method) {
        first.setMethod(method);
        return this;
    }

    @Override
    public String absoluteURI() {
        return first.absoluteURI();
    }

    @Override
    public String getURI() {
        return first.getURI();
    }

    @Override
    public HttpClientRequest setURI(String uri) {
        first.setURI(uri);
        return this;
    }

    @Override
    public String path() {
        return first.path();
    }

    @Override
    public String query() {
        return first.query();
    }

    @Override
    public HttpClientRequest traceOperation(String op) {
        first.traceOperation(op);
        return this;
    }

    @Override
    public String traceOperation() {
        return first.traceOperation();
    }

    @Override
    public HttpVersion version() {
        return first.version();
    }

    @Override
    public HttpClientRequest continueHandler(Handler<Void> handler) {
        continueHandler = handler;
        first.continueHandler(handler);
        return this;
    }

    @Override
    public HttpClientRequest earlyHintsHandler(Handler<MultiMap> handler) {
        earlyHintsHandler = handler;
        first.earlyHintsHandler(handler);
        return this;
    }

    /** The app's own choice of the next hop, on the first attempt only (the others follow the client's). */
    @Override
    public HttpClientRequest redirectHandler(Function<HttpClientResponse, Future<HttpClientRequest>> handler) {
        first.redirectHandler(handler);
        return this;
    }

    /** A {@code CONNECT} tunnel is not an API call: the client's own request makes it, unmanaged. */
    @Override
    public Future<HttpClientResponse> connect() {
        first.headers().clear().addAll(appHeaders);
        return first.connect();
    }

    @Override
    public HttpClientRequest idleTimeout(long timeout) {
        appTimeout(timeout);
        first.idleTimeout(timeout);
        return this;
    }

    @Override
    public HttpClientRequest pushHandler(Handler<HttpClientRequest> handler) {
        pushHandler = handler;
        first.pushHandler(handler);
        return this;
    }

    @Override
    public HttpConnection connection() {
        return first.connection();
    }

    @Override
    public HttpClientRequest setStreamPriority(StreamPriority streamPriority) {
        first.setStreamPriority(streamPriority);
        return this;
    }

    @Override
    public StreamPriority getStreamPriority() {
        return first.getStreamPriority();
    }
}
