package io.apiwarden.apachehttp;

import io.apiwarden.core.engine.RecordedBody;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.AbstractHttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

import java.io.ByteArrayInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The request entities of a call whose body the client cannot write twice (an {@code InputStreamEntity},
 * Spring's entity around a body it can write once only): the first attempt sends a {@link Recording},
 * which tees the bytes into the call's {@link RecordedBody} as the client writes them; a resend sends a
 * {@link Replay} of the recording, with the app's content type, encoding, length and framing.
 */
final class RecordedEntities {
    /** How much of the recording is copied out at a time on a replay: the client's own stream buffers it. */
    private static final int WRITE_CHUNK = 8 * 1024;

    private RecordedEntities() {
    }

    /** The app's entity, recorded as the client writes it. Still not repeatable: the app's stream is read once. */
    static final class Recording extends HttpEntityWrapper {
        private final RecordedBody recording;

        Recording(HttpEntity app, RecordedBody recording) {
            super(app);
            this.recording = recording;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            RecordedBody.Take take = recording.begin();
            try {
                super.writeTo(new FilterOutputStream(out) {
                    @Override
                    public void write(int b) throws IOException {
                        take.add(new byte[] {(byte) b}, 0, 1);
                        out.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        take.add(b, off, len);
                        out.write(b, off, len);
                    }
                });
            } catch (IOException | RuntimeException | Error e) {
                take.abandon();
                throw e;
            }
            take.complete();
        }
    }

    /** The recording, sent as the app's entity would have been: same content type, encoding, length and framing. */
    static final class Replay extends AbstractHttpEntity {
        private final List<ByteBuffer> recording;
        private final long length;

        Replay(HttpEntity app, List<ByteBuffer> recording, long recordedLength) {
            super(app.getContentType(), app.getContentEncoding(), app.isChunked());
            this.recording = recording;
            this.length = app.getContentLength() >= 0 ? recordedLength : -1;
        }

        @Override
        public boolean isRepeatable() {
            return true;
        }

        @Override
        public long getContentLength() {
            return length;
        }

        @Override
        public InputStream getContent() {
            byte[] all = new byte[(int) recording.stream().mapToLong(ByteBuffer::remaining).sum()];
            int at = 0;
            for (ByteBuffer piece : recording) {
                ByteBuffer b = piece.duplicate();
                int n = b.remaining();
                b.get(all, at, n);
                at += n;
            }
            return new ByteArrayInputStream(all);
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            byte[] chunk = new byte[WRITE_CHUNK];
            for (ByteBuffer piece : recording) {
                ByteBuffer b = piece.duplicate();
                while (b.hasRemaining()) {
                    int n = Math.min(chunk.length, b.remaining());
                    b.get(chunk, 0, n);
                    out.write(chunk, 0, n);
                }
            }
        }

        @Override
        public boolean isStreaming() {
            return false;
        }

        @Override
        public void close() {
            // Nothing held but the recording, which the call frees when it ends.
        }
    }
}
