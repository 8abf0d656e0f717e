package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.engine.RecordedBody;
import java.io.IOException;
import java.net.http.HttpRequest.BodyPublisher;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Flow;

/**
 * A recorded request body sent again: the recorded buffers, as the client asks for them, with the
 * length the app's publisher declared (so the resend has the same {@code Content-Length}, or is
 * chunked like the first attempt).
 */
final class ReplayPublisher implements BodyPublisher {
    private final RecordedBody recording;
    private final long contentLength;

    ReplayPublisher(RecordedBody recording, long contentLength) {
        this.recording = recording;
        this.contentLength = contentLength;
    }

    @Override
    public long contentLength() {
        return contentLength;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> client) {
        List<ByteBuffer> buffers;
        try {
            buffers = recording.buffers();
        } catch (IllegalStateException dropped) {
            // Only once the call has ended, when nothing of the agent's sends it again.
            client.onSubscribe(new Replay(client, List.of()));
            client.onError(new IOException("the recorded request body was released when its call ended"));
            return;
        }
        client.onSubscribe(new Replay(client, buffers));
    }

    /** Hands out the buffers on demand, one at a time; re-entrant calls of {@code request} only add demand. */
    private static final class Replay implements Flow.Subscription {
        private final Flow.Subscriber<? super ByteBuffer> client;
        private final List<ByteBuffer> buffers;
        // Guarded by this.
        private int next;
        private long demand;
        private boolean emitting;
        private boolean done;

        Replay(Flow.Subscriber<? super ByteBuffer> client, List<ByteBuffer> buffers) {
            this.client = client;
            this.buffers = buffers;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                synchronized (this) {
                    if (done) {
                        return;
                    }
                    done = true;
                }
                client.onError(new IllegalArgumentException("non-positive request: " + n));
                return;
            }
            synchronized (this) {
                demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                if (emitting || done) {
                    return;
                }
                emitting = true;
            }
            while (true) {
                ByteBuffer item;
                synchronized (this) {
                    if (done) {
                        emitting = false;
                        return;
                    }
                    if (next == buffers.size()) {
                        done = true;
                        emitting = false;
                        break;
                    }
                    if (demand == 0) {
                        emitting = false;
                        return;
                    }
                    demand--;
                    item = buffers.get(next++);
                }
                client.onNext(item);
            }
            client.onComplete();
        }

        @Override
        public synchronized void cancel() {
            done = true;
        }
    }
}
