package io.apiwarden.clients.micronaut.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import io.apiwarden.core.time.DelayScheduler;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.filter.ClientFilterChain;
import io.micronaut.http.filter.HttpClientFilter;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.reactivestreams.Publisher;

/**
 * The agent's client filter, the innermost of the chain (below the app's own filters, so an {@code Authorization}
 * one of them sets is the app's). A request to the API becomes one managed call whose attempts go down the rest of
 * the chain; a redirect hop Micronaut sends within one of the agent's attempts gets the attempt's headers inside the
 * API and loses them outside; anything else passes untouched.
 */
final class WardenFilter implements HttpClientFilter, Ordered {
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;
    /** Where waits go; null for the timer of each call's Warden. */
    private final DelayScheduler timer;

    private final Executor completions;
    /** The client's own time limit for a call (Micronaut's request time-out), or null when unknown or none. */
    private final Duration appTimeout;

    WardenFilter(Wardens wardens, DelayScheduler timer, Executor completions, Duration appTimeout) {
        this.wardens = wardens;
        this.timer = timer;
        this.completions = completions;
        this.appTimeout = appTimeout;
    }

    /** Innermost: client filters run in reverse order, the highest precedence next to the network. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    @Override
    public Publisher<? extends HttpResponse<?>> doFilter(MutableHttpRequest<?> request, ClientFilterChain chain) {
        Optional<AttemptElement> attempt = PropagatedContext.getOrEmpty().find(AttemptElement.class);
        if (attempt.isPresent()) {
            attempt.get().hop(request);
            return chain.proceed(request);
        }
        URI uri = request.getUri();
        Warden warden = uri == null || uri.getHost() == null ? null : wardens.forRequest(uri);
        if (warden == null) {
            return chain.proceed(request);
        }
        DelayScheduler waits = timer != null ? timer : warden.scheduler();
        MicronautExchange call = EntryGuard.open(
                "micronaut-call",
                "a Micronaut client call",
                () -> new MicronautExchange(warden, request, chain, appTimeout, waits, completions));
        return call == null ? chain.proceed(request) : call.publisher();
    }

    @Override
    public String toString() {
        return "WardenFilter";
    }
}
