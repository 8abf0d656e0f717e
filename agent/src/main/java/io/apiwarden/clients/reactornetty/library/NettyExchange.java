package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.HandOverFuture;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.time.DelayScheduler;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.timeout.ReadTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.HttpClientResponse;
import reactor.util.context.Context;

/**
 * Reactor Netty's side of one managed request, driven by the {@link CallDriver}'s asynchronous
 * face: an attempt is a subscription to the request's own {@code Mono<Connection>} (Reactor
 * Netty connects, sends and emits the connection once the response's status and headers are
 * in), with the attempt's headers in the subscriber context for {@link AttemptHeadersObserver}.
 * A resend is one more subscription: Reactor Netty builds the request again, calling the app's
 * body function again, as it does to follow a redirect; a body that function may not write twice
 * (Spring's) is recorded by the first attempt and replayed ({@link RecordedBodyFunction}).
 */
final class NettyExchange implements Exchange.Async<Connection> {
    private final Warden warden;
    private final CallDriver<Connection> driver;
    private final ManagedRequest request;
    private final Mono<? extends Connection> connect;
    private final Context appContext;
    private final DelayScheduler timer;
    private final Executor completions;
    /** Set once an attempt showed that the app set its own {@code Authorization} where the agent could not see it. */
    private volatile boolean appAuthorization;

    NettyExchange(
            Warden warden,
            CallDriver<Connection> driver,
            ManagedRequest request,
            Mono<? extends Connection> connect,
            Context appContext,
            DelayScheduler timer,
            Executor completions) {
        this.warden = warden;
        this.driver = driver;
        this.request = request;
        this.connect = connect;
        this.appContext = appContext;
        this.timer = timer;
        this.completions = completions;
    }

    @Override
    public boolean hasHeader(String name) {
        // The client's own headers; those the app's body function sets are only known once sent.
        return (appAuthorization && name.equalsIgnoreCase("Authorization")) || hasDefaultHeader(name);
    }

    private boolean hasDefaultHeader(String name) {
        return request.defaultHeaders != null && request.defaultHeaders.contains(name);
    }

    @Override
    public boolean bodyRepeatable() {
        return request.bodyRepeatable;
    }

    @Override
    public boolean expectContinue() {
        return false;
    }

    @Override
    public CompletableFuture<Attempt.Async<Connection>> sendAsync(
            AttemptHeaders headers, Duration timeout, Judge judge) {
        AttemptSpec spec = new AttemptSpec(
                warden.scope(), request.url, headers, timeout, request.recordsBody ? driver.recordBody(-1) : null);
        AttemptSubscriber attempt = new AttemptSubscriber(appContext.put(AttemptSpec.KEY, spec), spec, judge);
        connect.subscribe(attempt);
        return attempt;
    }

    @Override
    public Exception timedOut() {
        // What Reactor Netty raises when its response time-out runs out.
        return ReadTimeoutException.INSTANCE;
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
    public int status(Connection response) {
        return ((HttpClientResponse) response).status().code();
    }

    @Override
    public Function<String, List<String>> headers(Connection response) {
        HttpHeaders headers = ((HttpClientResponse) response).responseHeaders();
        return name -> NettyAttempt.valuesOf(headers, name);
    }

    void sawAppAuthorization() {
        appAuthorization = true;
    }

    /**
     * One subscription to the request: the future of its attempt, whose {@code cancel} cancels the
     * subscription (Reactor Netty then closes what it opened for it).
     */
    private final class AttemptSubscriber extends HandOverFuture<Attempt.Async<Connection>>
            implements CoreSubscriber<Connection> {
        private final Context context;
        private final AttemptSpec spec;
        private final Judge judge;
        private volatile Subscription subscription;

        AttemptSubscriber(Context context, AttemptSpec spec, Judge judge) {
            this.context = context;
            this.spec = spec;
            this.judge = judge;
        }

        @Override
        public Context currentContext() {
            return context;
        }

        @Override
        public void onSubscribe(Subscription s) {
            subscription = s;
            if (isCancelled()) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(Connection connection) {
            NettyAttempt attempt;
            try {
                attempt = new NettyAttempt(NettyExchange.this, connection, spec, judge, warden.scope());
            } catch (RuntimeException | Error e) {
                connection.dispose();
                completeExceptionally(e);
                return;
            }
            if (!complete(attempt)) {
                // Cancelled meanwhile: the response goes nowhere.
                attempt.discard();
            }
        }

        @Override
        public void onError(Throwable t) {
            completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            if (!isDone()) {
                completeExceptionally(
                        new IllegalStateException("Reactor Netty completed a request without a response"));
            }
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            return cancelled;
        }
    }
}
