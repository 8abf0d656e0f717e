package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.HandOverFuture;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.time.DelayScheduler;
import java.net.URI;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.netty.Connection;

/**
 * A request to the API, managed: each subscription is one logical call, run by a
 * {@link CallDriver} on its asynchronous face, which emits the connection of the response the app
 * gets. Disposing the subscription stops a pending wait and cancels the attempt in flight.
 * Subscribing again (the app's own {@code retry()}) is a new call, as without the agent.
 */
final class ManagedConnect extends Mono<Connection> {
    private final Warden warden;
    private final ManagedRequest request;
    private final Mono<? extends Connection> connect;
    private final DelayScheduler timer;
    private final Executor completions;

    ManagedConnect(
            Warden warden,
            ManagedRequest request,
            Mono<? extends Connection> connect,
            DelayScheduler timer,
            Executor completions) {
        this.warden = warden;
        this.request = request;
        this.connect = connect;
        this.timer = timer;
        this.completions = completions;
    }

    @Override
    public void subscribe(CoreSubscriber<? super Connection> actual) {
        CompletableFuture<Connection> call;
        try {
            URI uri = request.uri;
            CallTarget target = new CallTarget(
                    request.method, request.url, uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
            CallDriver<Connection> driver = new CallDriver<>(warden, target, request.appTimeout);
            call = driver.runAsync(
                    new NettyExchange(warden, driver, request, connect, actual.currentContext(), timer, completions));
        } catch (RuntimeException | Error e) {
            // Nothing was sent: the attempt's subscription is the last thing the engine does. As without the agent.
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "reactor-netty-call",
                    "a Reactor Netty request could not be managed; it goes as without the agent",
                    e);
            connect.subscribe(actual);
            return;
        }
        AppSubscription subscription = new AppSubscription(actual, call);
        actual.onSubscribe(subscription);
        HandOverFuture.handOver(call, subscription);
    }

    @Override
    public String toString() {
        return "ManagedConnect[" + request + "]";
    }

    /**
     * The app's subscription to a managed call: emits when the call's future completes (it is that future's next step
     * itself, where a method reference would be one more object per call, and {@code whenComplete} two), cancels it
     * when disposed.
     */
    private static final class AppSubscription extends Operators.MonoSubscriber<Connection, Connection>
            implements BiConsumer<Connection, Throwable> {
        private final CompletableFuture<Connection> call;

        AppSubscription(CoreSubscriber<? super Connection> actual, CompletableFuture<Connection> call) {
            super(actual);
            this.call = call;
        }

        @Override
        public void accept(Connection connection, Throwable failure) {
            if (failure != null) {
                if (!isCancelled()) {
                    actual.onError(
                            failure instanceof CompletionException && failure.getCause() != null
                                    ? failure.getCause()
                                    : failure);
                }
                return;
            }
            complete(connection);
        }

        @Override
        public void cancel() {
            try {
                super.cancel();
            } finally {
                call.cancel(true);
            }
        }

        /** A response that arrived after the app cancelled: its connection is closed, as Reactor Netty does. */
        @Override
        protected void discard(Connection connection) {
            // Also called with null when the app cancels before any response.
            if (connection != null) {
                connection.dispose();
            }
        }
    }
}
