package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import java.net.http.HttpRequest.BodyPublisher;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

/**
 * The app's body publisher, unchanged on the wire, with a tee into the call's
 * {@link RecordedBody}: every buffer is copied before the client gets it (the client consumes it
 * afterwards, on its own threads), and the end of the body, an error or a cancel is noted.
 * Same length as the app's publisher, so a declared length stays a {@code Content-Length} and an
 * undeclared one stays chunked.
 */
final class RecordingPublisher implements BodyPublisher {
    private final BodyPublisher app;
    private final RecordedBody recording;

    RecordingPublisher(BodyPublisher app, RecordedBody recording) {
        this.app = app;
        this.recording = recording;
    }

    @Override
    public long contentLength() {
        return app.contentLength();
    }

    @Override
    public void subscribe(Flow.Subscriber<? super ByteBuffer> client) {
        app.subscribe(new Tee(client, recording.begin()));
    }

    /** Between the app's publisher and the client: passes every signal on, after noting it. */
    private static final class Tee implements Flow.Subscriber<ByteBuffer>, Flow.Subscription {
        private final Flow.Subscriber<? super ByteBuffer> client;
        private final RecordedBody.Take take;
        private volatile Flow.Subscription upstream;

        Tee(Flow.Subscriber<? super ByteBuffer> client, RecordedBody.Take take) {
            this.client = client;
            this.take = take;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            upstream = subscription;
            client.onSubscribe(this);
        }

        @Override
        public void onNext(ByteBuffer item) {
            try {
                take.add(item);
            } catch (RuntimeException e) {
                // The body still goes out as the app wrote it; only its resend is lost.
                AgentLog.once(
                        AgentLog.Level.WARN, "body-recording", "a request body could not be recorded for a resend", e);
                take.abandon();
            }
            client.onNext(item);
        }

        @Override
        public void onError(Throwable failure) {
            take.abandon();
            client.onError(failure);
        }

        @Override
        public void onComplete() {
            take.complete();
            client.onComplete();
        }

        @Override
        public void request(long n) {
            upstream.request(n);
        }

        @Override
        public void cancel() {
            // The client gave up on the body: what passed is not all of it.
            take.abandon();
            upstream.cancel();
        }
    }
}
