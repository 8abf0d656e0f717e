package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.engine.RecordedBody;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * Entities around a request entity of the app's that the client cannot send twice (a stream, what
 * Spring's streaming bodies become): the first attempt's bytes go through a tee into the call's
 * {@link RecordedBody} as the client writes them; a resend writes the recording. Both keep the app's
 * content type, encoding, length and chunking, so a declared length stays a {@code Content-Length}
 * and an unknown one stays chunked, and both say they are not repeatable, so the client never
 * repeats them on its own.
 */
final class RecordingEntities {
    private RecordingEntities() {}

    /** The app's entity, written as it writes itself, and recorded on the way. */
    static HttpEntity recording(HttpEntity app, RecordedBody recording) {
        return new Teed(app, recording);
    }

    /** The recorded entity, written again. */
    static HttpEntity replay(HttpEntity app, RecordedBody recording) {
        return new Replayed(app, recording);
    }

    private static final class Teed extends HttpEntityWrapper {
        private final RecordedBody recording;

        Teed(HttpEntity app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public boolean isRepeatable() {
            return false;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            RecordedBody.Take take = recording.begin();
            try {
                super.writeTo(new FilterOutputStream(out) {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                        take.add(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int len) throws IOException {
                        out.write(bytes, offset, len);
                        take.add(bytes, offset, len);
                    }
                });
            } catch (IOException | RuntimeException | Error e) {
                take.abandon();
                throw e;
            }
            take.complete();
        }
    }

    private static final class Replayed extends HttpEntityWrapper {
        private final RecordedBody recording;

        Replayed(HttpEntity app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public boolean isRepeatable() {
            return false;
        }

        @Override
        public boolean isStreaming() {
            return false;
        }

        @Override
        public InputStream getContent() throws IOException {
            ByteArrayOutputStream copy = new ByteArrayOutputStream();
            writeTo(copy);
            return new java.io.ByteArrayInputStream(copy.toByteArray());
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            List<ByteBuffer> buffers;
            try {
                buffers = recording.buffers();
            } catch (IllegalStateException dropped) {
                throw new IOException("the recorded request body was released when its call ended");
            }
            byte[] piece = new byte[8192];
            for (ByteBuffer b : buffers) {
                while (b.hasRemaining()) {
                    int n = Math.min(piece.length, b.remaining());
                    b.get(piece, 0, n);
                    out.write(piece, 0, n);
                }
            }
        }
    }
}
