package io.apiwarden.clients.jdk.library;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Optional;

/**
 * The request one attempt puts on the wire: the current request with the attempt's headers (replacing the app's
 * values), and its own time-out and body where it has them. A view, not a copy made through
 * {@link HttpRequest#newBuilder}: the builder's copy made a header map, a list per header and checked every value
 * (the token's too) before the JDK's client made and checked its own again, about a third of what management
 * allocated per call. The JDK's client takes any {@link HttpRequest} and checks its headers itself.
 */
final class AttemptRequest extends HttpRequest {
    private final HttpRequest base;
    private final HttpHeaders headers;
    private final Optional<Duration> timeout;
    private final Optional<BodyPublisher> body;

    /**
     * @param headers the base request's headers with the attempt's ({@link LastAttemptHeaders#merge})
     * @param timeout the attempt's time-out, or null for the base request's
     * @param body the attempt's body, or null for the base request's
     */
    AttemptRequest(HttpRequest base, HttpHeaders headers, Duration timeout, BodyPublisher body) {
        this.base = base;
        this.timeout = timeout != null ? Optional.of(timeout) : base.timeout();
        this.body = body != null ? Optional.of(body) : base.bodyPublisher();
        this.headers = headers;
    }

    @Override
    public Optional<BodyPublisher> bodyPublisher() {
        return body;
    }

    @Override
    public String method() {
        return base.method();
    }

    @Override
    public Optional<Duration> timeout() {
        return timeout;
    }

    @Override
    public boolean expectContinue() {
        return base.expectContinue();
    }

    @Override
    public URI uri() {
        return base.uri();
    }

    @Override
    public Optional<HttpClient.Version> version() {
        return base.version();
    }

    @Override
    public HttpHeaders headers() {
        return headers;
    }

    /** As the base request says itself: the URI and method, never a header. */
    @Override
    public String toString() {
        return base.toString();
    }
}
