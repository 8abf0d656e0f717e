package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.clients.reactornetty.bridge.ReactorNettyBridge;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.call.BodyReplay;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.throttle.RateLimitHeaders;
import io.apiwarden.core.time.DelayScheduler;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;
import reactor.netty.ConnectionObserver;
import reactor.netty.http.client.HttpClient;

/**
 * The agent's entry into one copy of Reactor Netty: the calls woven into its HTTP client, passed
 * on to a {@link ManagedConnect} per request to the API. Defined by the agent in a class loader
 * whose parent is Reactor Netty's own, so that it links to the app's copy whatever loader that is.
 */
public final class ReactorNettyGlue implements ReactorNettyBridge {
    /**
     * The body functions recorded for a resend: Spring's ({@code RestClient} and {@code RestTemplate} on
     * {@code ReactorClientHttpRequestFactory}, {@code WebClient} on {@code ReactorClientHttpConnector}), which
     * write whatever body the app gave, one-shot ones included ({@code InputStreamResource}), and never look
     * at the outbound as anything but an outbound. Any other function of the app's is called again.
     */
    static final Predicate<Object> SPRING_BODY_FUNCTIONS =
            body -> body.getClass().getName().startsWith("org.springframework.http.client.");

    /** The Warden of each request's API: the agent's router, or one Warden in tests. */
    private final Wardens wardens;

    private final Predicate<Object> recordedBodies;
    private final DelayScheduler timer;
    private final Executor completions;
    private final ManagedRequest.Uris uris = new ManagedRequest.Uris();
    /**
     * The last client observer seen and the same with the agent's after it: Reactor Netty asks for the observer on
     * every request, mostly handing the same one, and composing it anew allocated on every request, unmanaged ones
     * too. Replaced as a whole.
     */
    private volatile Object[] lastObserver;

    /** Waits on Reactor's own timer (its parallel scheduler, where {@code Mono.delay} runs), never on an event loop. */
    public ReactorNettyGlue(Wardens wardens) {
        this(wardens, new ReactorTimer(), task -> Schedulers.parallel().schedule(task), SPRING_BODY_FUNCTIONS);
    }

    /**
     * For tests: the test's timer, where the app's subscriber is called when no event loop does it, and
     * which body functions are recorded.
     */
    ReactorNettyGlue(Wardens wardens, DelayScheduler timer, Executor completions, Predicate<Object> recordedBodies) {
        this.wardens = wardens;
        this.recordedBodies = recordedBodies;
        this.timer = timer;
        this.completions = completions;
    }

    @Override
    public Object onConnect(Object client, Object connect) {
        @SuppressWarnings("unchecked")
        Mono<? extends Connection> original = (Mono<? extends Connection>) connect;
        return manage((HttpClient) client, original);
    }

    /** {@code connect}, a request of {@code client}, as it is outside every API, or managed by its API's Warden. */
    Mono<? extends Connection> manage(HttpClient client, Mono<? extends Connection> connect) {
        ManagedRequest request = ManagedRequest.of(client.configuration(), wardens, recordedBodies, uris);
        return request == null ? connect : new ManagedConnect(request.warden, request, connect, timer, completions);
    }

    @Override
    public void prepare() {
        // Loaded and initialised here, off the app's threads, rather than by the first managed request.
        for (Class<?> used : new Class<?>[] {
            ManagedRequest.class,
            ManagedRequest.Uris.class,
            ManagedConnect.class,
            NettyExchange.class,
            NettyAttempt.class,
            AttemptSpec.class,
            AttemptHeadersObserver.class,
            CallDriver.class,
            CallTarget.class,
            CallState.class,
            Deadline.class,
            AttemptHeaders.class,
            AttemptObserver.class,
            Scope.class,
            Verdict.class,
            Decision.class,
            OnTheWire.class,
            BodyReplay.class,
            RateLimitHeaders.class
        }) {
            initialise(used);
        }
        for (Class<?> nested : ManagedConnect.class.getDeclaredClasses()) {
            initialise(nested);
        }
        for (Class<?> nested : NettyExchange.class.getDeclaredClasses()) {
            initialise(nested);
        }
    }

    private static void initialise(Class<?> type) {
        try {
            Class.forName(type.getName(), true, type.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            // The first request loads it then, or fails to as it would have.
        }
    }

    @Override
    public Object observer(Object observer) {
        Object[] last = lastObserver;
        if (last != null && last[0] == observer) {
            return last[1];
        }
        Object composed = ((ConnectionObserver) observer).then(AttemptHeadersObserver.INSTANCE);
        lastObserver = new Object[] {observer, composed};
        return composed;
    }
}
