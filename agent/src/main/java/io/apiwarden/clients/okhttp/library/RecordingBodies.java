package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import okhttp3.MediaType;
import okhttp3.RequestBody;
import okio.Buffer;
import okio.BufferedSink;
import okio.ForwardingSink;
import okio.Okio;

/**
 * OkHttp bodies around a one-shot {@link RequestBody} of the app's: the first attempt's writes go
 * through a tee into the call's {@link RecordedBody}; a resend writes the recording. Both have
 * the app's content type and length, so a declared length stays a {@code Content-Length} and an
 * unknown one stays chunked, and both stay one-shot, so OkHttp never repeats them on its own.
 */
final class RecordingBodies {
    private RecordingBodies() {}

    /** The app's body, written as the app writes it, and recorded on the way. */
    static RequestBody recording(RequestBody app, RecordedBody recording) {
        return new Teed(app, recording);
    }

    /** The recorded body, written again. */
    static RequestBody replay(RequestBody app, RecordedBody recording) {
        return new Replayed(app, recording);
    }

    private abstract static class Like extends RequestBody {
        final RequestBody app;

        Like(RequestBody app) {
            this.app = app;
        }

        @Override
        public MediaType contentType() {
            return app.contentType();
        }

        @Override
        public long contentLength() throws IOException {
            return app.contentLength();
        }

        @Override
        public boolean isOneShot() {
            return true;
        }
    }

    private static final class Teed extends Like {
        private final RecordedBody recording;

        Teed(RequestBody app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public void writeTo(BufferedSink sink) throws IOException {
            RecordedBody.Take take = recording.begin();
            TeeSink tee = new TeeSink(sink, take);
            BufferedSink teed = Okio.buffer(tee);
            try {
                app.writeTo(teed);
                if (!tee.closed) {
                    // Hands what the tee still buffers to OkHttp's sink, which OkHttp flushes as ever.
                    teed.emit();
                }
            } catch (IOException | RuntimeException | Error e) {
                take.abandon();
                throw e;
            }
            take.complete();
        }
    }

    private static final class Replayed extends Like {
        private final RecordedBody recording;

        Replayed(RequestBody app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public void writeTo(BufferedSink sink) throws IOException {
            java.util.List<ByteBuffer> buffers;
            try {
                buffers = recording.buffers();
            } catch (IllegalStateException dropped) {
                throw new IOException("the recorded request body was released when its call ended");
            }
            for (ByteBuffer b : buffers) {
                while (b.hasRemaining()) {
                    sink.write(b);
                }
            }
        }
    }

    /** Passes every write on to OkHttp's sink, after copying it into the take (the bytes are left in place). */
    private static final class TeeSink extends ForwardingSink {
        private final RecordedBody.Take take;
        private final OutputStream into;
        private boolean failed;
        /** The app's body closed its sink (which closed OkHttp's, as without the agent): all was emitted. */
        boolean closed;

        TeeSink(BufferedSink sink, RecordedBody.Take take) {
            super(sink);
            this.take = take;
            this.into = new OutputStream() {
                @Override
                public void write(int b) {
                    take.add(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] bytes, int offset, int len) {
                    take.add(bytes, offset, len);
                }
            };
        }

        @Override
        public void write(Buffer source, long byteCount) throws IOException {
            if (!failed) {
                try {
                    source.copyTo(into, 0, byteCount);
                } catch (IOException | RuntimeException e) {
                    // The body still goes out as the app wrote it; only its resend is lost.
                    failed = true;
                    take.abandon();
                    AgentLog.once(
                            AgentLog.Level.WARN,
                            "body-recording",
                            "a request body could not be recorded for a resend",
                            e);
                }
            }
            super.write(source, byteCount);
        }

        @Override
        public void close() throws IOException {
            closed = true;
            super.close();
        }
    }
}
