package io.apiwarden.it.apps;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A request body as a streaming framework hands it to the JDK client through
 * {@code BodyPublishers.fromPublisher}: pieces of at most 1 KiB, produced once (a second
 * subscriber gets an error, as a socket or a template being rendered would give).
 */
public final class StreamedBody implements Flow.Publisher<ByteBuffer> {
    private static final int PIECE = 1024;
    private final byte[] content;
    private final AtomicBoolean used = new AtomicBoolean();

    private StreamedBody(byte[] content) {
        this.content = content;
    }

    /** A body of {@code content}, to be sent once. */
    public static StreamedBody of(byte[] content) {
        return new StreamedBody(content);
    }

    /** {@code size} bytes of a JSON-ish text that says where in the body each line is. */
    public static byte[] content(int size) {
        StringBuilder s = new StringBuilder(size + 32);
        for (int line = 0; s.length() < size; line++) {
            s.append("{\"line\":").append(line).append("}\n");
        }
        return s.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
        boolean first = used.compareAndSet(false, true);
        subscriber.onSubscribe(new Flow.Subscription() {
            private int sent;
            private long demand;
            private boolean emitting;
            private boolean done;

            @Override
            public synchronized void request(long n) {
                if (done) {
                    return;
                }
                if (!first) {
                    done = true;
                    subscriber.onError(new IllegalStateException("this body was already sent"));
                    return;
                }
                demand += n;
                if (emitting) {
                    // Asked for more from inside onNext: the loop below goes on.
                    return;
                }
                emitting = true;
                while (demand > 0 && sent < content.length && !done) {
                    demand--;
                    int from = sent;
                    int len = Math.min(PIECE, content.length - from);
                    sent += len;
                    subscriber.onNext(ByteBuffer.wrap(content, from, len).slice());
                }
                emitting = false;
                if (sent == content.length && !done) {
                    done = true;
                    subscriber.onComplete();
                }
            }

            @Override
            public synchronized void cancel() {
                done = true;
            }
        });
    }
}
