package io.apiwarden.core.engine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The tee and the replay of a {@link RecordedBody} for clients whose request bodies write themselves
 * to an {@link OutputStream} (Apache HttpClient 4 and 5 classic entities' {@code writeTo}): written
 * once here so that each adapter's entity wrappers only say which entity writes.
 */
public final class RecordedStreams {
    /** A body that writes itself to a stream: the app's entity's {@code writeTo}. */
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    private RecordedStreams() {}

    /**
     * Lets {@code body} write itself to {@code out}, every byte also going to a new take of
     * {@code recording} as it passes; the take is complete when the body wrote itself whole, abandoned
     * when it threw.
     */
    public static void record(Writer body, OutputStream out, RecordedBody recording) throws IOException {
        RecordedBody.Take take = recording.begin();
        try {
            body.writeTo(new FilterOutputStream(out) {
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

    /**
     * Writes the whole recording to {@code out}.
     *
     * @throws IOException when the recording is gone (its call ended) or was never whole
     */
    public static void replay(RecordedBody recording, OutputStream out) throws IOException {
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

    /**
     * The whole recording as a stream of its own, for a replayed entity's {@code getContent()}.
     *
     * @throws IOException when the recording is gone (its call ended) or was never whole
     */
    public static InputStream content(RecordedBody recording) throws IOException {
        ByteArrayOutputStream copy = new ByteArrayOutputStream();
        replay(recording, copy);
        return new ByteArrayInputStream(copy.toByteArray());
    }
}
