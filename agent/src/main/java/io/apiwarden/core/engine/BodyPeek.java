package io.apiwarden.core.engine;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The time bound on holding an error's body to classify it ({@code apiwarden.classify.max-body-wait}): the
 * app gets the response's head no later than the bound after it arrived, however slowly the body comes.
 * One rule for every client: a prefix that is not whole within the bound is judged as one too long to
 * hold, by the response's status ({@link Judge#classify}), and the body goes to the app as it is, the
 * bytes read first, then the rest as it comes.
 *
 * <p>Every client checks the bound as each piece of the body arrives ({@link Watch}), on real time,
 * as the bytes come in it: a blocked read cannot be cut short without breaking the connection, so a
 * body that sends no byte at all is waited for up to the client's own read time-out, as the app's
 * own read would be.
 */
public final class BodyPeek {
    /** The first buffer; error bodies are mostly short, and the buffer grows up to the peek's limit. */
    private static final int FIRST_BUFFER = 8 * 1024;

    private BodyPeek() {}

    /** What {@link Judge.BodyPrefix#read} throws when the prefix was not whole within the bound. */
    public static final class TooSlow extends IOException {
        private static final long serialVersionUID = 1L;

        public TooSlow(Duration bound) {
            super("the error body was not in within " + bound.toMillis() + " ms", null);
        }

        /** A signal, not a failure: no stack trace to fill. */
        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }

    /** The bytes read from a stream, and whether they are the whole prefix (the limit, or the body's end) within the bound. */
    public static final class Prefix {
        public final byte[] bytes;
        public final boolean inTime;

        Prefix(byte[] bytes, boolean inTime) {
            this.bytes = bytes;
            this.inTime = inTime;
        }
    }

    /** The time since an error's head arrived, against the bound. */
    public static final class Watch {
        private final LongSupplier nanoTime;
        private final long start;
        private final long boundNanos;

        public Watch(Duration bound, LongSupplier nanoTime) {
            this.nanoTime = nanoTime;
            this.start = nanoTime.getAsLong();
            this.boundNanos = bound.toNanos();
        }

        /** On the system's time: the bytes arrive in it. */
        public static Watch start(Duration bound) {
            return new Watch(bound, System::nanoTime);
        }

        /** Whether the bound has passed. */
        public boolean over() {
            return nanoTime.getAsLong() - start >= boundNanos;
        }
    }

    /** Reads up to {@code limit} bytes of {@code in}, piece by piece as they come, until the limit, the end, or the bound. */
    public static Prefix read(InputStream in, int limit, Watch watch) throws IOException {
        byte[] buffer = new byte[Math.min(limit, FIRST_BUFFER)];
        int n = 0;
        while (n < limit) {
            if (n == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(limit, 2L * buffer.length));
            }
            int read = in.read(buffer, n, buffer.length - n);
            if (read < 0) {
                break;
            }
            n += read;
            if (n < limit && watch.over()) {
                return new Prefix(Arrays.copyOf(buffer, n), false);
            }
        }
        return new Prefix(Arrays.copyOf(buffer, n), true);
    }

    /**
     * A {@link Judge.BodyPrefix#read} for a client whose body is an {@link InputStream}: reads up to
     * {@code limit} bytes of {@code in} within {@code bound}, and hands {@code putBack} the whole body to give
     * the app instead of {@code in} (the bytes read, then the rest of {@code in}, so that the end of the
     * client's own stream still frees its connection), whether the prefix was whole in time or not.
     *
     * @return the prefix
     * @throws TooSlow when the prefix was not whole within the bound
     */
    public static byte[] peek(InputStream in, int limit, Duration bound, Consumer<InputStream> putBack)
            throws IOException {
        return peek(in, limit, Watch.start(bound), bound, putBack);
    }

    /** {@link #peek(InputStream, int, Duration, Consumer)} on the time {@code watch} keeps. */
    static byte[] peek(InputStream in, int limit, Watch watch, Duration bound, Consumer<InputStream> putBack)
            throws IOException {
        Prefix head = read(in, limit, watch);
        putBack.accept(new SequenceInputStream(new ByteArrayInputStream(head.bytes), in));
        if (!head.inTime) {
            throw new TooSlow(bound);
        }
        return head.bytes;
    }
}
