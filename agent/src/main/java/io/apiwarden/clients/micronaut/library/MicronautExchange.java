package io.apiwarden.clients.micronaut.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.time.DelayScheduler;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.http.client.exceptions.ReadTimeoutException;
import io.micronaut.http.filter.ClientFilterChain;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Micronaut's side of one managed call, driven by the {@link CallDriver}'s asynchronous face from inside the
 * agent's filter: an attempt is one {@code chain.proceed(request)} (the rest of the chain: connect, send, follow
 * redirects, read the response the app's way), with the attempt's headers set on the app's request, as a filter
 * sets them, and the attempt in the propagated context for the redirect hops ({@link AttemptElement}). A resend is
 * one more {@code proceed}: Micronaut encodes the request's body again from the body object.
 */
final class MicronautExchange implements Exchange.Async<Reply> {
    private final Warden warden;
    private final MutableHttpRequest<?> request;
    private final ClientFilterChain chain;
    private final PropagatedContext context;
    private final Set<String> appHeaders;
    private final DelayScheduler timer;
    private final Executor completions;
    private final CallDriver<Reply> driver;

    MicronautExchange(
            Warden warden,
            MutableHttpRequest<?> request,
            ClientFilterChain chain,
            Duration appTimeout,
            DelayScheduler timer,
            Executor completions) {
        this.warden = warden;
        this.request = request;
        this.chain = chain;
        // The app's context (tracing, MDC...) goes with every attempt, resends from the agent's timer included.
        this.context = PropagatedContext.getOrEmpty();
        this.appHeaders = namesOf(request);
        this.timer = timer;
        this.completions = completions;
        this.driver = new CallDriver<>(warden, CallTarget.of(request.getMethodName(), request.getUri()), appTimeout);
    }

    private static Set<String> namesOf(MutableHttpRequest<?> request) {
        Set<String> names = new HashSet<>();
        for (String name : request.getHeaders().names()) {
            names.add(name.toLowerCase(Locale.ROOT));
        }
        return names;
    }

    /** The app's publisher of the call: each subscription runs it once; cancelling it cancels the call. */
    Publisher<HttpResponse<?>> publisher() {
        return new CallPublisher(() -> driver.runAsync(this));
    }

    @Override
    public boolean hasHeader(String name) {
        return appHeaders.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Micronaut writes the body object anew for every send (a string, an array, an object its codecs encode); a
     * publisher, or the raw body of {@code proxy}/the raw {@code exchange}, is consumed by the first.
     */
    @Override
    public boolean bodyRepeatable() {
        Object body = request.getBody().orElse(null);
        return body == null || !(body instanceof Publisher || isRawBody(body));
    }

    private static boolean isRawBody(Object body) {
        return body.getClass().getName().startsWith("io.micronaut.http.body.");
    }

    @Override
    public boolean expectContinue() {
        return false;
    }

    /** What Micronaut raises when its request time-out (or read time-out) runs out. */
    @Override
    public Exception timedOut() {
        return ReadTimeoutException.TIMEOUT_EXCEPTION;
    }

    @Override
    public int status(Reply reply) {
        return reply.response.code();
    }

    @Override
    public Function<String, List<String>> headers(Reply reply) {
        return MicronautAttempt.headersOf(reply.response);
    }

    @Override
    public DelayScheduler timer() {
        return timer;
    }

    @Override
    public Executor completions() {
        return completions;
    }

    /** Micronaut has no time-out per request below its filters: the app's limit is above them, on the whole call. */
    @Override
    public CompletableFuture<Attempt.Async<Reply>> sendAsync(AttemptHeaders headers, Duration timeout, Judge judge) {
        headers.forEach((name, value) -> {
            request.getHeaders().remove(name);
            request.getHeaders().add(name, value);
        });
        AttemptElement element = new AttemptElement(warden.scope(), headers, appHeaders, request.getUri());
        AttemptSubscriber attempt = new AttemptSubscriber(element, judge);
        Publisher<? extends HttpResponse<?>> sent;
        try (PropagatedContext.Scope ignored = context.plus(element).propagate()) {
            sent = chain.proceed(request);
        }
        sent.subscribe(attempt);
        return attempt;
    }

    /** One {@code proceed}: the future of its attempt, whose {@code cancel} cancels the subscription (and Micronaut's request). */
    private static final class AttemptSubscriber extends CompletableFuture<Attempt.Async<Reply>>
            implements Subscriber<HttpResponse<?>> {
        private final AttemptElement element;
        private final Judge judge;
        private volatile Subscription subscription;

        AttemptSubscriber(AttemptElement element, Judge judge) {
            this.element = element;
            this.judge = judge;
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
        public void onNext(HttpResponse<?> response) {
            arrived(Reply.of(response));
        }

        @Override
        public void onError(Throwable t) {
            if (t instanceof HttpClientResponseException && ((HttpClientResponseException) t).getResponse() != null) {
                arrived(Reply.of((HttpClientResponseException) t));
            } else {
                completeExceptionally(t);
            }
        }

        private void arrived(Reply reply) {
            MicronautAttempt attempt;
            try {
                attempt = new MicronautAttempt(reply, element, judge);
            } catch (RuntimeException | Error e) {
                completeExceptionally(e);
                return;
            }
            if (!complete(attempt)) {
                // Cancelled meanwhile: the response goes nowhere.
                attempt.discard();
            }
        }

        @Override
        public void onComplete() {
            if (!isDone()) {
                completeExceptionally(new IllegalStateException("Micronaut completed a request without a response"));
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
