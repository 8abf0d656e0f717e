package io.apiwarden.clients.jdk.library;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/** A request body that can be read once, like a stream from a socket: a second subscriber gets an error. */
final class OneShotPublisher implements Flow.Publisher<ByteBuffer> {
    private final byte[] content;
    private final AtomicBoolean used = new AtomicBoolean();

    OneShotPublisher(String content) {
        this.content = content.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        boolean first = used.compareAndSet(false, true);
        subscriber.onSubscribe(new Flow.Subscription() {
            private boolean done;

            @Override
            public void request(long n) {
                if (done) {
                    return;
                }
                done = true;
                if (first) {
                    subscriber.onNext(ByteBuffer.wrap(content));
                    subscriber.onComplete();
                } else {
                    subscriber.onError(new IllegalStateException("this body was already read"));
                }
            }

            @Override
            public void cancel() {
                done = true;
            }
        });
    }
}
