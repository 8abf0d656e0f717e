package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.impl.NoStackTraceTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Vert.x's side of one managed request, driven by the {@link CallDriver}'s asynchronous face. The first
 * attempt is the request the app's client made (its connection already asked for); each later one is a new
 * request of the same client, made on the app's context with the same options, the app's headers, and the
 * body again: a {@code Buffer} as the app gave it, a body the app wrote piece by piece from its recording.
 */
final class VertxExchange implements Exchange.Async<HttpClientResponse> {
    private static final String AUTHORIZATION = "Authorization";

    private final Warden warden;
    private final CallDriver<HttpClientResponse> driver;
    private final ManagedClientRequest request;
    private final DelayScheduler timer;
    private final Executor completions;
    private int attempts;

    VertxExchange(
            Warden warden,
            CallDriver<HttpClientResponse> driver,
            ManagedClientRequest request,
            DelayScheduler timer,
            Executor completions) {
        this.warden = warden;
        this.driver = driver;
        this.request = request;
        this.timer = timer;
        this.completions = completions;
    }

    @Override
    public boolean hasHeader(String name) {
        return request.appHeaders.contains(name);
    }

    @Override
    public boolean bodyRepeatable() {
        return request.streamed == null;
    }

    @Override
    public boolean expectContinue() {
        return "100-continue".equalsIgnoreCase(request.appHeaders.get("Expect"));
    }

    @Override
    public Exception timedOut() {
        // What Vert.x raises when a request's time-out runs out.
        return new NoStackTraceTimeoutException("The timeout period of the request has been exceeded while executing "
                + request.getMethod() + " " + request.getURI());
    }

    @Override
    public DelayScheduler timer() {
        return timer;
    }

    @Override
    public Executor completions() {
        return completions;
    }

    @Override
    public int status(HttpClientResponse response) {
        return response.statusCode();
    }

    @Override
    public Function<String, List<String>> headers(HttpClientResponse response) {
        return response.headers()::getAll;
    }

    @Override
    public CompletableFuture<Attempt.Async<HttpClientResponse>> sendAsync(
            AttemptHeaders headers, Duration timeout, Judge judge) {
        AttemptFuture attempt = new AttemptFuture();
        if (++attempts == 1) {
            send(request.first, true, headers, timeout, judge, attempt);
            return attempt;
        }
        // A new request of the app's client, made on the app's context, where its handlers run.
        request.context.runOnContext(
                v -> request.client.request(request.nextOptions()).onComplete(made -> {
                    if (made.failed()) {
                        attempt.completeExceptionally(made.cause());
                    } else if (attempt.isCancelled()) {
                        VertxLinks.reset(made.result());
                    } else {
                        send(made.result(), false, headers, timeout, judge, attempt);
                    }
                }));
        return attempt;
    }

    private void send(
            HttpClientRequest real,
            boolean first,
            AttemptHeaders headers,
            Duration timeout,
            Judge judge,
            AttemptFuture attempt) {
        attempt.real = real;
        if (!first) {
            request.copySettingsTo(real);
        }
        real.headers().clear().addAll(request.appHeaders);
        headers.forEach(real::putHeader);
        if (timeout != null) {
            real.idleTimeout(Math.max(1, timeout.toMillis()));
        }
        if (request.isFollowRedirects()) {
            real.redirectHandler(new Hops(real, headers));
        }
        real.response().onComplete(arrived -> {
            if (arrived.failed()) {
                if (first && request.streamed != null) {
                    request.streamed.abandon();
                }
                attempt.completeExceptionally(arrived.cause());
                return;
            }
            HttpClientResponse response = arrived.result();
            response.pause();
            VertxAttempt judged;
            try {
                judged = new VertxAttempt(response, judge, onTheWire(response));
            } catch (RuntimeException | Error e) {
                response.resume();
                attempt.completeExceptionally(e);
                return;
            }
            if (!attempt.complete(judged)) {
                // Cancelled meanwhile: the response goes nowhere.
                judged.discard();
            }
        });
        sendBody(real, first);
    }

    private void sendBody(HttpClientRequest real, boolean first) {
        if (request.streamed == null) {
            Future<Void> ended = request.body == null ? real.end() : real.end(request.body);
            if (first) {
                ended.onComplete(request::endedWith);
            }
            return;
        }
        RecordedBody recording = driver.recordBody(request.declaredLength());
        if (recording != null && recording.isComplete()) {
            real.end(StreamedBody.whole(recording.buffers()));
        } else if (first) {
            request.streamed.attach(real, recording == null ? null : recording.begin());
        } else {
            // Never asked by the driver (it resends a streamed body only from a whole recording).
            VertxLinks.reset(real);
        }
    }

    /** Where the attempt ended up after the redirects its client followed: outside the API, it is never classified. */
    private OnTheWire onTheWire(HttpClientResponse response) {
        HttpClientRequest last = response.request();
        if (last != null && !inScope(URI.create(last.absoluteURI()))) {
            return OnTheWire.LEFT_THE_API;
        }
        return OnTheWire.AS_PREPARED;
    }

    private boolean inScope(URI uri) {
        return warden.scope().contains(uri);
    }

    /**
     * The redirect handler of one attempt: the client's own (its default strips headers across origins, and
     * the app may have set another) chooses the next hop; the agent's headers stay on it only inside the API.
     */
    private final class Hops implements Function<HttpClientResponse, Future<HttpClientRequest>> {
        private final HttpClientRequest real;
        private final AttemptHeaders headers;

        Hops(HttpClientRequest real, AttemptHeaders headers) {
            this.real = real;
            this.headers = headers;
        }

        @Override
        public Future<HttpClientRequest> apply(HttpClientResponse response) {
            Function<HttpClientResponse, Future<RequestOptions>> chooser = VertxLinks.redirectChooser(request.client);
            Future<RequestOptions> next = chooser == null ? null : chooser.apply(response);
            if (next == null) {
                return null;
            }
            return next.compose(options -> {
                AttemptOptions hop = new AttemptOptions(options);
                if (hopInScope(hop)) {
                    headers.forEach(hop::putHeader);
                } else {
                    headers.forEach((name, value) -> {
                        if (hop.getHeaders() != null
                                && value.equals(hop.getHeaders().get(name))) {
                            hop.removeHeader(name);
                        }
                    });
                    if (!request.appHeaders.contains(AUTHORIZATION) && hop.getHeaders() != null) {
                        // Whatever the chooser copied: a token only the agent put on the request.
                        hop.removeHeader(AUTHORIZATION);
                    }
                }
                return request.client.request(hop);
            });
        }

        private boolean hopInScope(RequestOptions hop) {
            URI from = URI.create(real.absoluteURI());
            String host = hop.getHost() == null ? from.getHost() : hop.getHost();
            int port = hop.getPort() == null ? from.getPort() : hop.getPort();
            String uri = hop.getURI() == null ? "/" : hop.getURI();
            int query = uri.indexOf('?');
            String path = query < 0 ? uri : uri.substring(0, query);
            return warden.scope().contains(Boolean.TRUE.equals(hop.isSsl()) ? "https" : "http", host, port, path);
        }
    }

    /** One attempt's future, whose {@code cancel} resets the request on the wire. */
    private final class AttemptFuture extends CompletableFuture<Attempt.Async<HttpClientResponse>> {
        volatile HttpClientRequest real;

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            HttpClientRequest r = real;
            if (r != null) {
                VertxLinks.reset(r, 0, request.resetCause());
            }
            return cancelled;
        }
    }
}
