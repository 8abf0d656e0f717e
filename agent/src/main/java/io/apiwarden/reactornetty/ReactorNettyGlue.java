package io.apiwarden.reactornetty;

import io.apiwarden.bridge.ReactorNettyBridge;
import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.netty.ConnectionObserver;
import reactor.netty.http.client.HttpClient;

import java.util.concurrent.Executor;

/**
 * The agent's entry into one copy of Reactor Netty: the calls woven into its HTTP client, passed
 * on to a {@link ManagedConnect} per request to the API. Defined by the agent in a class loader
 * whose parent is Reactor Netty's own, so that it links to the app's copy whatever loader that is.
 */
public final class ReactorNettyGlue implements ReactorNettyBridge {
    private final Warden warden;
    private final DelayScheduler timer;
    private final Executor completions;

    /** Waits on Reactor's own timer (its parallel scheduler, where {@code Mono.delay} runs), never on an event loop. */
    public ReactorNettyGlue(Warden warden) {
        this(warden, new ReactorTimer(), task -> Schedulers.parallel().schedule(task));
    }

    /** For tests: the test's timer, and where the app's subscriber is called when no event loop does it. */
    ReactorNettyGlue(Warden warden, DelayScheduler timer, Executor completions) {
        this.warden = warden;
        this.timer = timer;
        this.completions = completions;
    }

    @Override
    public Object onConnect(Object client, Object connect) {
        @SuppressWarnings("unchecked")
        Mono<? extends Connection> original = (Mono<? extends Connection>) connect;
        return manage((HttpClient) client, original);
    }

    /** {@code connect}, a request of {@code client}, as it is outside the API, or managed. */
    Mono<? extends Connection> manage(HttpClient client, Mono<? extends Connection> connect) {
        ManagedRequest request = ManagedRequest.of(client.configuration(), warden.scope());
        return request == null ? connect : new ManagedConnect(warden, request, connect, timer, completions);
    }

    @Override
    public Object observer(Object observer) {
        return ((ConnectionObserver) observer).then(AttemptHeadersObserver.INSTANCE);
    }
}
