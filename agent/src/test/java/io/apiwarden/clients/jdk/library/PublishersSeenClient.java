package io.apiwarden.clients.jdk.library;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/** A JDK client that notes the body publisher of every request it is given, then sends it through a real one. */
final class PublishersSeenClient extends HttpClient {
    private final HttpClient real = HttpClient.newHttpClient();
    final List<HttpRequest.BodyPublisher> publishers = new CopyOnWriteArrayList<>();

    private void note(HttpRequest request) {
        request.bodyPublisher().ifPresent(publishers::add);
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
            throws IOException, InterruptedException {
        note(request);
        return real.send(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        note(request);
        return real.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
            HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
        note(request);
        return real.sendAsync(request, handler, push);
    }

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return real.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return real.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return real.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return real.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return real.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return real.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return real.authenticator();
    }

    @Override
    public Version version() {
        return real.version();
    }

    @Override
    public Optional<Executor> executor() {
        return real.executor();
    }
}
