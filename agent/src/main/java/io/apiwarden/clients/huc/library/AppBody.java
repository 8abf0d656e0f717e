package io.apiwarden.clients.huc.library;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The stream the app writes its request body to. The managed call is sent when the app first asks for
 * the response, so the body is held until then, as the JDK holds one itself unless the app streams it.
 * A streamed body (fixed length or chunked) is held up to a bound; past it, {@link Overflow} hands what
 * was held to a connection of the JDK's and the rest of the body goes straight to it.
 */
final class AppBody extends OutputStream {
    /** What takes the body over when it outgrows what may be held. */
    interface Overflow {
        /** Writes {@code held} to a connection of the JDK's and returns its stream, for the rest of the body. */
        OutputStream takeOver(byte[] held) throws IOException;
    }

    private final Buffer held = new Buffer();
    private final long limit;
    private final Overflow overflow;
    private OutputStream passedOn;
    private boolean closed;

    /** @param limit the most held before the body goes to {@code overflow}; {@code Long.MAX_VALUE} for no bound */
    AppBody(long limit, Overflow overflow) {
        this.limit = limit;
        this.overflow = overflow;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (closed) {
            throw new IOException("Stream is closed");
        }
        if (passedOn == null && held.size() + (long) len > limit) {
            passedOn = overflow.takeOver(held.toByteArray());
            held.reset();
        }
        if (passedOn != null) {
            passedOn.write(b, off, len);
        } else {
            held.write(b, off, len);
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        if (passedOn != null) {
            passedOn.flush();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        if (passedOn != null) {
            passedOn.close();
        }
    }

    /** Whether the body went to a connection of the JDK's, unmanaged. */
    synchronized boolean passedOn() {
        return passedOn != null;
    }

    /** The body as held; no more can be written. */
    synchronized byte[] bytes() {
        closed = true;
        return held.bytes();
    }

    /** A byte array stream whose whole content is read without a copy when it fills its array exactly. */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return count == buf.length ? buf : Arrays.copyOf(buf, count);
        }
    }
}
