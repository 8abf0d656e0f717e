package io.apiwarden.clients.jetty.library;

import io.apiwarden.core.engine.RecordedBody;
import java.nio.ByteBuffer;
import java.util.List;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.io.Content;

/**
 * The app's request body, which Jetty cannot send twice (a stream, an {@code AsyncRequestContent}, an
 * {@code OutputStreamRequestContent}), passed through as it is while each chunk Jetty reads is copied
 * into the call's {@link RecordedBody} first. Bytes, chunks and declared length are the app's.
 */
final class RecordingContent implements Request.Content {
    private final Request.Content app;
    private final RecordedBody recording;
    private volatile RecordedBody.Take take;

    RecordingContent(Request.Content app, RecordedBody recording) {
        this.app = app;
        this.recording = recording;
        this.take = recording.begin();
    }

    @Override
    public String getContentType() {
        return app.getContentType();
    }

    @Override
    public long getLength() {
        return app.getLength();
    }

    @Override
    public Content.Chunk read() {
        Content.Chunk chunk = app.read();
        if (chunk == null) {
            return null;
        }
        RecordedBody.Take t = take;
        if (Content.Chunk.isFailure(chunk)) {
            t.abandon();
            return chunk;
        }
        if (chunk.hasRemaining()) {
            t.add(chunk.getByteBuffer());
        }
        if (chunk.isLast()) {
            t.complete();
        }
        return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
        app.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        take.abandon();
        app.fail(failure);
    }

    @Override
    public void fail(Throwable failure, boolean last) {
        if (last) {
            take.abandon();
        }
        app.fail(failure, last);
    }

    /** A body that can be rewound (Jetty follows a 307 with it) is recorded anew as it is sent again. */
    @Override
    public boolean rewind() {
        if (!app.rewind()) {
            return false;
        }
        take = recording.begin();
        return true;
    }

    /** A resend of a recorded body: the recording, with the app's content type and declared length. */
    static final class Replay implements Request.Content {
        private final Request.Content app;
        private final ByteBufferRequestContent recorded;

        Replay(Request.Content app, List<ByteBuffer> buffers) {
            this.app = app;
            this.recorded = new ByteBufferRequestContent(app.getContentType(), buffers);
        }

        @Override
        public String getContentType() {
            return app.getContentType();
        }

        @Override
        public long getLength() {
            return app.getLength();
        }

        @Override
        public Content.Chunk read() {
            return recorded.read();
        }

        @Override
        public void demand(Runnable demandCallback) {
            recorded.demand(demandCallback);
        }

        @Override
        public void fail(Throwable failure) {
            recorded.fail(failure);
        }

        @Override
        public boolean rewind() {
            return recorded.rewind();
        }
    }
}
