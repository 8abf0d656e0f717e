package io.apiwarden.clients.jetty.library;

import io.apiwarden.core.engine.RecordedBody;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.content.InputStreamContentSource;

/**
 * The app's request body, which Jetty cannot send twice (a stream, an {@code AsyncRequestContent}, an
 * {@code OutputStreamRequestContent}), passed through as it is while each chunk Jetty reads is copied
 * into the call's {@link RecordedBody} first. Bytes, chunks and declared length are the app's.
 *
 * <p>Jetty sends the body and reads the response at once, on different threads, and an API may
 * answer before it has read the whole body (a 401 needs only the head). Recorded only as Jetty's
 * sender reads it, the body would then not be whole when the engine decides, on the response's
 * thread, and a refresh the app is owed would not happen: the sender may be a chunk (or only the
 * {@code complete} of the last one) behind; and for a 401 with {@code WWW-Authenticate}, or a redirect,
 * Jetty's protocol handler aborts the request body as soon as the response is in, and never reads
 * the rest. So when the response begins ({@link #recordAhead}), and when Jetty fails the body, what
 * the app's source already has is read ahead into the recording, and handed to the sender, in order,
 * when it reads on. A body the app is still producing stays not finished, as it truly is.
 */
final class RecordingContent implements Request.Content {
    private final Request.Content app;
    private final RecordedBody recording;
    /**
     * An {@code InputStream}'s source reads the app's stream on the calling thread and may block: it
     * is never read ahead on the response's thread, only as Jetty's sender reads it.
     */
    private final boolean mayReadAhead;

    // Guarded by this: the sender's reads and a read ahead take the app's chunks one at a time, in order.
    private RecordedBody.Take take;
    /** Chunks read ahead of the sender, recorded already: its next reads get them first. */
    private final ArrayDeque<Content.Chunk> ahead = new ArrayDeque<>();

    RecordingContent(Request.Content app, RecordedBody recording) {
        this.app = app;
        this.recording = recording;
        this.mayReadAhead = !(app instanceof InputStreamContentSource);
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
        synchronized (this) {
            Content.Chunk early = ahead.poll();
            return early != null ? early : record(app.read());
        }
    }

    /** Records a chunk of the app's body, whoever read it; a failed body is not whole. */
    private Content.Chunk record(Content.Chunk chunk) {
        if (chunk == null) {
            return null;
        }
        if (Content.Chunk.isFailure(chunk)) {
            take.abandon();
            return chunk;
        }
        if (chunk.hasRemaining()) {
            take.add(chunk.getByteBuffer());
        }
        if (chunk.isLast()) {
            take.complete();
        }
        return chunk;
    }

    /**
     * The attempt's response has begun: reads the app's body ahead of the sender, as far as the
     * app's source has it now and the recording keeps it, so that the engine decides on the body
     * the app gave, not on how far Jetty got sending it. Never waits for the app.
     */
    void recordAhead() {
        if (!mayReadAhead) {
            return;
        }
        synchronized (this) {
            while (take.isRecording()) {
                Content.Chunk chunk = record(app.read());
                if (chunk == null) {
                    return;
                }
                ahead.add(chunk);
                if (chunk.isLast() || Content.Chunk.isFailure(chunk)) {
                    return;
                }
            }
        }
    }

    @Override
    public void demand(Runnable demandCallback) {
        synchronized (this) {
            if (ahead.isEmpty()) {
                app.demand(demandCallback);
                return;
            }
        }
        // Read ahead since the sender found nothing: what it waits for is here.
        demandCallback.run();
    }

    /**
     * Jetty gives up on the body: the app's request was aborted, or a protocol handler stops the
     * body once the response is in. What the app's source has is recorded first: the call may still
     * be resent with it.
     */
    @Override
    public void fail(Throwable failure) {
        abandonAfterReadingAhead();
        app.fail(failure);
    }

    @Override
    public void fail(Throwable failure, boolean last) {
        if (last) {
            abandonAfterReadingAhead();
        }
        app.fail(failure, last);
    }

    private void abandonAfterReadingAhead() {
        recordAhead();
        synchronized (this) {
            take.abandon();
            // Never to be read: the app's source lets go of them (an AsyncRequestContent's write completes).
            releaseAhead();
        }
    }

    private void releaseAhead() {
        for (Content.Chunk chunk = ahead.poll(); chunk != null; chunk = ahead.poll()) {
            chunk.release();
        }
    }

    /** A body that can be rewound (Jetty follows a 307 with it) is recorded anew as it is sent again. */
    @Override
    public boolean rewind() {
        synchronized (this) {
            if (!app.rewind()) {
                return false;
            }
            releaseAhead();
            take = recording.begin();
            return true;
        }
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
