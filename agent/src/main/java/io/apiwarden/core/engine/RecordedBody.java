package io.apiwarden.core.engine;

import io.apiwarden.core.call.BodyReplay;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The bytes of a request body the client cannot produce twice (a JDK {@code fromPublisher}, an
 * OkHttp one-shot body...), recorded as an attempt sends them, so that a resend can send the
 * same bytes again. One per call, from {@link CallDriver#recordBody}; the driver drops it when the
 * call ends.
 *
 * <p>An adapter puts a tee in its client's body: each time the client starts sending the body
 * ({@link #begin}), the bytes go to the returned {@link Take} as they pass, and the take is
 * {@link Take#complete completed} when the body has ended, {@link Take#abandon abandoned} when it
 * failed or was cancelled. A new take drops what an earlier one recorded: the client started the
 * body again. Only a completed take within the bound can be replayed ({@link #buffers}); what
 * {@link #replay} says otherwise is the reason a call is not resent.
 *
 * <p>Bytes are copied once, into chunks that grow with what was recorded so far (the first is
 * exactly the first piece the body came in, so a body sent in one piece costs one array of its
 * length), never copied again. A body that outgrows the bound frees what it held at once.
 * Thread-safe: the client writes the body on its threads while the driver decides on another.
 */
public final class RecordedBody {
    private static final int LARGEST_CHUNK = 64 * 1024;
    private static final byte[][] NO_CHUNKS = new byte[0][];

    private enum Status {
        NOT_STARTED,
        RECORDING,
        COMPLETE,
        TOO_LARGE,
        ABANDONED,
        DROPPED
    }

    private final long limit;
    // All guarded by this.
    private Status status = Status.NOT_STARTED;
    private Take current;
    private byte[][] chunks = NO_CHUNKS;
    private int count;
    /** How much of the last chunk is filled. */
    private int fill;

    private long length;

    /** @param limit the most bytes recorded; a longer body is not kept */
    public RecordedBody(long limit) {
        this.limit = limit;
    }

    /**
     * Tells the length the client declares for the body before it is sent ({@code -1} when it
     * does not know). Returns false, and the body is marked too large, when that is over the bound:
     * the adapter then sends the body as it is, without a tee.
     */
    public synchronized boolean fits(long declaredLength) {
        if (declaredLength > limit) {
            free(Status.TOO_LARGE);
            return false;
        }
        return true;
    }

    /** The client starts sending the body: record it from the start, dropping what was recorded before. */
    public synchronized Take begin() {
        Take take = new Take();
        if (status == Status.DROPPED) {
            return take;
        }
        free(Status.RECORDING);
        current = take;
        return take;
    }

    /** Whether the body was recorded whole, within the bound: {@link #buffers} can be sent. */
    public synchronized boolean isComplete() {
        return status == Status.COMPLETE;
    }

    /** What a resend could do with the body, for {@link io.apiwarden.core.call.ResendPolicy}. */
    public synchronized BodyReplay replay() {
        switch (status) {
            case COMPLETE:
                return BodyReplay.REPEATABLE;
            case TOO_LARGE:
                return BodyReplay.TOO_LARGE_TO_REPLAY;
            default:
                return BodyReplay.NOT_FINISHED;
        }
    }

    /** How many bytes were recorded. */
    public synchronized long length() {
        return length;
    }

    /**
     * The recorded body, as read-only buffers of their own (positions at 0) for one resend.
     *
     * @throws IllegalStateException when the body was not recorded whole, or was dropped
     */
    public synchronized List<ByteBuffer> buffers() {
        if (status != Status.COMPLETE) {
            throw new IllegalStateException("the request body was not recorded whole (" + status + ")");
        }
        if (count == 1) {
            return Collections.singletonList(ByteBuffer.wrap(chunks[0], 0, fill).asReadOnlyBuffer());
        }
        List<ByteBuffer> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(ByteBuffer.wrap(chunks[i], 0, i == count - 1 ? fill : chunks[i].length)
                    .asReadOnlyBuffer());
        }
        return list;
    }

    /** The call ended: the recording is freed, and what a client still sends is no longer recorded. */
    public synchronized void drop() {
        free(Status.DROPPED);
    }

    private void free(Status next) {
        status = next;
        current = null;
        chunks = NO_CHUNKS;
        count = 0;
        fill = 0;
        length = 0;
    }

    /** Copies {@code len} bytes from {@code array} at {@code offset}, or (array null) from {@code buffer}'s position on. */
    private void append(Take take, byte[] array, int offset, ByteBuffer buffer, int len) {
        if (take != current || status != Status.RECORDING || len <= 0) {
            return;
        }
        if (len > limit - length) {
            free(Status.TOO_LARGE);
            return;
        }
        int from = offset;
        int left = len;
        while (left > 0) {
            if (count == 0 || fill == chunks[count - 1].length) {
                addChunk(left);
            }
            byte[] chunk = chunks[count - 1];
            int n = Math.min(left, chunk.length - fill);
            if (array != null) {
                System.arraycopy(array, from, chunk, fill, n);
            } else {
                buffer.get(chunk, fill, n);
            }
            from += n;
            fill += n;
            left -= n;
            length += n;
        }
    }

    /** A chunk for at least {@code needed} more bytes, and as long as all before it (up to 64 KiB): few arrays, no copies. */
    private void addChunk(int needed) {
        long size = Math.max(needed, Math.min(length, LARGEST_CHUNK));
        size = Math.min(size, limit - length);
        if (count == chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(4, count * 2));
        }
        chunks[count++] = new byte[(int) size];
        fill = 0;
    }

    /** One sending of the body: what a tee in the client's body reports. Methods never throw. */
    public final class Take {
        private Take() {}

        /** The bytes between {@code buffer}'s position and limit pass; the buffer itself is left as it was. */
        public void add(ByteBuffer buffer) {
            synchronized (RecordedBody.this) {
                if (buffer.hasArray()) {
                    append(this, buffer.array(), buffer.arrayOffset() + buffer.position(), null, buffer.remaining());
                } else if (this == current && status == Status.RECORDING) {
                    append(this, null, 0, buffer.duplicate(), buffer.remaining());
                }
            }
        }

        /** {@code len} bytes of {@code bytes} from {@code offset} pass. */
        public void add(byte[] bytes, int offset, int len) {
            synchronized (RecordedBody.this) {
                append(this, bytes, offset, null, len);
            }
        }

        /**
         * Whether bytes added now are still kept: false once this take completed, was abandoned or
         * replaced, outgrew the bound, or the call ended. An adapter that reads a body ahead of its
         * client, to record it whole, stops there.
         */
        public boolean isRecording() {
            synchronized (RecordedBody.this) {
                return this == current && status == Status.RECORDING;
            }
        }

        /** The body ended: every byte of it passed. */
        public void complete() {
            synchronized (RecordedBody.this) {
                if (this == current && status == Status.RECORDING) {
                    status = Status.COMPLETE;
                }
            }
        }

        /** The body failed or was cancelled before it ended: what passed is not the whole body. */
        public void abandon() {
            synchronized (RecordedBody.this) {
                if (this == current && status == Status.RECORDING) {
                    free(Status.ABANDONED);
                }
            }
        }
    }
}
