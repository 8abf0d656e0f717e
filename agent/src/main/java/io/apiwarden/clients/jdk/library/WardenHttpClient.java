package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient} that manages calls to the API and passes every other call, and every
 * other method, to the client it wraps.
 *
 * <p>Managed calls get the bearer token, a refresh and one resend on "OAuth invalid token", and
 * bounded back-off on "API rate limit exceeded (global)". When the wrapped client follows
 * redirects, managed calls go through a twin that does not, and the agent follows the hops
 * itself, so that the token never leaves the API's origin (JDK 17 would forward it).
 */
public final class WardenHttpClient extends HttpClient {
    private final HttpClient delegate;
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    private final RedirectRule redirects;
    private volatile HttpClient noRedirectTwin;
    /** The headers of this client's last managed attempt, for the next with the same ones. */
    private final LastAttemptHeaders lastHeaders = new LastAttemptHeaders();
    /** Set by the Java 21 life-cycle methods: no twin is built after the app shut the client down. */
    private volatile boolean shutDown;

    private WardenHttpClient(HttpClient delegate, Wardens wardens) {
        this.delegate = delegate;
        this.wardens = wardens;
        this.redirects =
                delegate.followRedirects() == Redirect.NEVER ? null : new RedirectRule(delegate.followRedirects());
    }

    /** Wraps {@code client}; a client that is already wrapped is returned as it is. */
    public static HttpClient wrap(HttpClient client, Warden warden) {
        return wrap(client, (Wardens) warden);
    }

    /** Wraps {@code client} for the APIs {@code wardens} routes to (the agent's router). */
    public static HttpClient wrap(HttpClient client, Wardens wardens) {
        if (client instanceof WardenHttpClient) {
            return client;
        }
        return new WardenHttpClient(client, wardens);
    }

    /** The client this one passes calls to. */
    public HttpClient delegate() {
        return delegate;
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
            throws IOException, InterruptedException {
        ManagedCall<T> call = managedCall(request, handler, null);
        return call == null ? delegate.send(request, handler) : call.send();
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
        ManagedCall<T> call = managedCall(request, handler, null);
        return call == null ? delegate.sendAsync(request, handler) : call.sendAsync();
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request, BodyHandler<T> handler, PushPromiseHandler<T> pushPromiseHandler) {
        ManagedCall<T> call = managedCall(request, handler, pushPromiseHandler);
        return call == null ? delegate.sendAsync(request, handler, pushPromiseHandler) : call.sendAsync();
    }

    /** A managed call for a request under the API base, or null to pass the request through untouched. */
    private <T> ManagedCall<T> managedCall(HttpRequest request, BodyHandler<T> handler, PushPromiseHandler<T> push) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(handler, "responseBodyHandler");
        // EntryGuard.open's guard, written out: its lambda would capture four values on every call.
        try {
            Warden warden = wardens.forRequest(request.uri());
            return warden == null
                    ? null
                    : new ManagedCall<>(warden, delegate, sender(), redirects, request, handler, push, lastHeaders);
        } catch (RuntimeException e) {
            return EntryGuard.failed("managed-call", "a call", e);
        }
    }

    /** The client for managed attempts: the wrapped one, or its non-redirecting twin. */
    private HttpClient sender() {
        if (redirects == null || shutDown) {
            return delegate;
        }
        HttpClient twin = noRedirectTwin;
        if (twin == null) {
            synchronized (this) {
                twin = noRedirectTwin;
                if (twin == null) {
                    twin = InternalClients.noRedirectCopyOf(delegate);
                    noRedirectTwin = twin;
                }
            }
        }
        return twin;
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }

    @Override
    public WebSocket.Builder newWebSocketBuilder() {
        return delegate.newWebSocketBuilder();
    }

    // The Java 21 life-cycle methods, declared without @Override so that the agent still
    // compiles for Java 11; on 21 and later they override HttpClient's and reach both clients.

    /** Java 21+: shuts the wrapped client (and its twin) down. */
    public void shutdown() {
        shutDown = true;
        ClientLifecycle.shutdown(delegate, noRedirectTwin);
    }

    /** Java 21+: shuts the wrapped client (and its twin) down now. */
    public void shutdownNow() {
        shutDown = true;
        ClientLifecycle.shutdownNow(delegate, noRedirectTwin);
    }

    /** Java 21+: waits for the wrapped client (and its twin) to terminate. */
    public boolean awaitTermination(Duration duration) throws InterruptedException {
        return ClientLifecycle.awaitTermination(duration, delegate, noRedirectTwin);
    }

    /** Java 21+: whether the wrapped client (and its twin) terminated. */
    public boolean isTerminated() {
        return ClientLifecycle.isTerminated(delegate, noRedirectTwin);
    }

    /** Java 21+: closes the wrapped client (and its twin). */
    public void close() {
        shutDown = true;
        ClientLifecycle.close(delegate, noRedirectTwin);
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
