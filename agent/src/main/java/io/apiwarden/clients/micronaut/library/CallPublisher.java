package io.apiwarden.clients.micronaut.library;

import io.micronaut.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * What the agent's filter returns to the chain above it for a managed call: one response, or Micronaut's exception,
 * once the call ends. Each subscription runs the call once; cancelling the subscription cancels the call (a pending
 * wait dropped, the attempt in flight cancelled). Written against Reactive Streams alone, as the filter contract is.
 */
final class CallPublisher implements Publisher<HttpResponse<?>> {
    private final Supplier<CompletableFuture<Reply>> call;

    CallPublisher(Supplier<CompletableFuture<Reply>> call) {
        this.call = call;
    }

    @Override
    public void subscribe(Subscriber<? super HttpResponse<?>> subscriber) {
        AppSubscription subscription = new AppSubscription(subscriber);
        subscriber.onSubscribe(subscription);
        if (subscription.cancelled.get()) {
            return;
        }
        CompletableFuture<Reply> running = call.get();
        subscription.running = running;
        if (subscription.cancelled.get()) {
            running.cancel(true);
            return;
        }
        running.whenComplete(subscription::ended);
    }

    /** The app's subscription: the answer goes once it is there and asked for. */
    private static final class AppSubscription implements Subscription {
        private final Subscriber<? super HttpResponse<?>> subscriber;
        final AtomicBoolean cancelled = new AtomicBoolean();
        private final AtomicBoolean requested = new AtomicBoolean();
        private final AtomicBoolean signalled = new AtomicBoolean();
        volatile CompletableFuture<Reply> running;
        private volatile Reply reply;
        private volatile Throwable failure;
        private volatile boolean ended;

        AppSubscription(Subscriber<? super HttpResponse<?>> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                subscriber.onError(new IllegalArgumentException("§3.9: request(" + n + ")"));
                return;
            }
            requested.set(true);
            signalIfReady();
        }

        @Override
        public void cancel() {
            if (cancelled.compareAndSet(false, true)) {
                CompletableFuture<Reply> call = running;
                if (call != null) {
                    call.cancel(true);
                }
            }
        }

        void ended(Reply reply, Throwable failure) {
            this.reply = reply;
            this.failure =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            ended = true;
            signalIfReady();
        }

        private void signalIfReady() {
            if (!ended || cancelled.get()) {
                return;
            }
            Reply answer = reply;
            // An error needs no request (§1.4); a response waits for one.
            boolean error = failure != null || answer.error != null;
            if (!error && !requested.get()) {
                return;
            }
            if (!signalled.compareAndSet(false, true)) {
                return;
            }
            if (failure != null) {
                subscriber.onError(failure);
            } else if (answer.error != null) {
                subscriber.onError(answer.error);
            } else {
                subscriber.onNext(answer.response);
                subscriber.onComplete();
            }
        }
    }
}
