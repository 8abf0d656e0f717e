package io.apiwarden.clients.jdk.library;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands body chunks to the app's subscriber at the pace it asks for: first the chunks the agent
 * already read, then (when there is an upstream) the rest of the body as it arrives.
 *
 * <p>Used to replay a buffered error body into the app's own {@code BodySubscriber}, and to pass
 * an error body through once it proves too long to hold. Signals to the app are serialised by a
 * work-in-progress counter, so a {@code request} from inside {@code onNext} does not recurse.
 */
final class RelaySubscription implements Flow.Subscription {
    private final Flow.Subscriber<? super List<ByteBuffer>> app;
    private final Flow.Subscription upstream;
    private final AtomicInteger wip = new AtomicInteger();
    private final ArrayDeque<List<ByteBuffer>> queue;

    // Guarded by this.
    private long demand;
    private boolean upstreamRequested;
    private boolean upstreamDone;
    private Throwable upstreamError;
    private boolean finished;

    /**
     * @param upstream the rest of the body, or null when {@code prefix} is the whole of it
     */
    RelaySubscription(
            Flow.Subscriber<? super List<ByteBuffer>> app, List<List<ByteBuffer>> prefix, Flow.Subscription upstream) {
        this.app = app;
        this.queue = new ArrayDeque<>(prefix);
        this.upstream = upstream;
        this.upstreamDone = upstream == null;
    }

    /** Subscribes the app and starts delivery. */
    void start() {
        app.onSubscribe(this);
        drain();
    }

    @Override
    public void request(long n) {
        Flow.Subscription up = null;
        synchronized (this) {
            if (n <= 0) {
                // Reactive Streams rule 3.9: signal the error, and let go of the connection.
                upstreamError = new IllegalArgumentException("non-positive request: " + n);
                up = upstreamDone ? null : upstream;
                upstreamDone = true;
                queue.clear();
            } else {
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
            }
        }
        if (up != null) {
            up.cancel();
        }
        drain();
    }

    @Override
    public void cancel() {
        Flow.Subscription up;
        synchronized (this) {
            finished = true;
            queue.clear();
            up = upstreamDone ? null : upstream;
        }
        if (up != null) {
            up.cancel();
        }
    }

    void onUpstreamNext(List<ByteBuffer> item) {
        synchronized (this) {
            upstreamRequested = false;
            if (!finished) {
                queue.add(item);
            }
        }
        drain();
    }

    void onUpstreamComplete() {
        synchronized (this) {
            upstreamDone = true;
        }
        drain();
    }

    void onUpstreamError(Throwable t) {
        synchronized (this) {
            upstreamDone = true;
            upstreamError = t;
            queue.clear();
        }
        drain();
    }

    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        while (true) {
            while (step()) {
                // keep going while there is something to deliver
            }
            missed = wip.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** Delivers one signal; false when nothing can happen until more demand or data comes. */
    private boolean step() {
        List<ByteBuffer> item = null;
        Throwable error = null;
        boolean complete = false;
        boolean askUpstream = false;
        synchronized (this) {
            if (finished) {
                return false;
            }
            if (upstreamError != null) {
                finished = true;
                error = upstreamError;
            } else if (demand > 0 && !queue.isEmpty()) {
                item = queue.poll();
                demand--;
            } else if (queue.isEmpty() && upstreamDone) {
                finished = true;
                complete = true;
            } else if (demand > 0 && !upstreamRequested && !upstreamDone) {
                upstreamRequested = true;
                askUpstream = true;
            } else {
                return false;
            }
        }
        if (item != null) {
            app.onNext(item);
        } else if (error != null) {
            app.onError(error);
        } else if (complete) {
            app.onComplete();
        } else if (askUpstream) {
            upstream.request(1);
        }
        return true;
    }
}
