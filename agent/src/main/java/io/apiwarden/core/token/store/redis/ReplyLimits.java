package io.apiwarden.core.token.store.redis;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Checks what Redis sends, byte by byte, before Jedis parses it: only replies of the kinds and sizes the
 * store reads get through. Jedis trusts the headers it reads: it allocates the length a {@code $} or
 * {@code *} header announces before a byte of it has come (a 2,000,000,000-byte header is an
 * OutOfMemoryError), and it reads nested arrays by recursion (200,000 levels are a StackOverflowError).
 * Here such a header fails the read it arrives in, as an I/O failure ({@link RefusedReply}), so Jedis
 * never acts on it and the operation ends as the store being unavailable.
 *
 * <p>The checked grammar is RESP2, which is all the store asks for (it never sends HELLO 3): simple
 * strings, errors, integers, bulk strings and arrays, each within the limits below. Every reply is
 * checked as a whole; a connection carries one after another (and the fleet's channel many).
 */
final class ReplyLimits extends FilterInputStream {
    /**
     * The most bytes one reply may take, headers included: the largest reply the store reads is its
     * state record (HMGET of the generation, the record and the bound key), and a record holds at most
     * {@link StateCodec#MAX_RECORD_BYTES}; 1 KiB more holds the generation, the bound key (a generation and a
     * 43-character thumbprint), the headers and any status or error line Redis words (a few hundred bytes at most).
     */
    static final int MAX_REPLY_BYTES = StateCodec.MAX_RECORD_BYTES + 1024;
    /**
     * How deep arrays may nest: the store's replies are at most one array of strings (HMGET's fields,
     * a channel's messages). Jedis reads each level by recursion, so depth is what overflows a stack.
     */
    static final int MAX_DEPTH = 1;
    /**
     * The most elements an array may have: a channel's message and the subscription's confirmations
     * have 3 (kind, channel, text or count), and so has HMGET's answer. Jedis sizes its list by the header.
     */
    static final int MAX_ARRAY_ELEMENTS = 3;
    /** A decimal integer reply has at most the 19 digits of {@link Long#MAX_VALUE}. */
    private static final int MAX_INTEGER_DIGITS = 19;

    private enum State {
        TYPE,
        LINE,
        LINE_CR,
        NUMBER,
        NUMBER_LF,
        BULK,
        BULK_CR,
        BULK_LF
    }

    private State state = State.TYPE;
    /** The type byte of the header being read: ':' (integer), '$' (bulk length) or '*' (array length). */
    private byte numberType;

    private boolean negative;
    private int digits;
    private long number;
    /** Bytes of a bulk string still to come. */
    private long bulkLeft;
    /** Elements still to come in each open array, outermost first. */
    private final long[] elementsLeft = new long[MAX_DEPTH];

    private int depth;
    /** Bytes of the current reply so far. */
    private long replyBytes;

    ReplyLimits(InputStream in) {
        super(in);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) == -1 ? -1 : one[0] & 0xff;
    }

    /** Reads as the stream beneath does, and fails instead of returning bytes that break a limit. */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        for (int i = off; i < off + n; i++) {
            if (state == State.BULK && bulkLeft > 1) {
                // The body of a bulk string was allowed whole at its header: skip through it.
                int skip = (int) Math.min(bulkLeft - 1, off + n - i);
                bulkLeft -= skip;
                replyBytes += skip;
                i += skip - 1;
                continue;
            }
            accept(b[i]);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // Jedis never skips; a skipped byte would be an unchecked one.
        throw new IOException("skipping is not supported on a checked Redis connection");
    }

    private void accept(byte c) throws RefusedReply {
        if (++replyBytes > MAX_REPLY_BYTES) {
            throw new RefusedReply("a reply of more than " + MAX_REPLY_BYTES + " bytes, more than a token state needs");
        }
        switch (state) {
            case TYPE:
                type(c);
                break;
            case LINE:
                if (c == '\r') {
                    state = State.LINE_CR;
                }
                break;
            case LINE_CR:
                // As Jedis reads a line, by pairs: a CR and the byte after it end the line when that byte is LF, and
                // are both part of the line otherwise, even when it is another CR.
                if (c == '\n') {
                    valueEnded();
                } else {
                    state = State.LINE;
                }
                break;
            case NUMBER:
                digit(c);
                break;
            case NUMBER_LF:
                if (c != '\n') {
                    throw new RefusedReply("a number in a header not ended by CR LF");
                }
                numberEnded();
                break;
            case BULK:
                state = State.BULK_CR;
                break;
            case BULK_CR:
                if (c != '\r') {
                    throw new RefusedReply("a bulk string longer than its header says");
                }
                state = State.BULK_LF;
                break;
            case BULK_LF:
                if (c != '\n') {
                    throw new RefusedReply("a bulk string not ended by CR LF");
                }
                valueEnded();
                break;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    private void type(byte c) throws RefusedReply {
        switch (c) {
            case '+':
            case '-':
                state = State.LINE;
                break;
            case ':':
            case '$':
            case '*':
                numberType = c;
                negative = false;
                digits = 0;
                number = 0;
                state = State.NUMBER;
                break;
            default:
                // RESP3's types among them: the store never asks for RESP3, so a Redis that sends them is not answering
                // it.
                throw new RefusedReply("a reply of a type the store never asks for (first byte "
                        + String.format("0x%02x", c & 0xff) + ")");
        }
    }

    private void digit(byte c) throws RefusedReply {
        if (c == '-' && digits == 0 && !negative) {
            negative = true;
        } else if (c >= '0' && c <= '9') {
            if (++digits > MAX_INTEGER_DIGITS) {
                throw new RefusedReply("a number of more than " + MAX_INTEGER_DIGITS + " digits");
            }
            number = number * 10 + (c - '0');
            // Refused at the digit that breaks the limit, before Jedis could allocate for the length or count.
            if (negative && numberType != ':' && number > 1) {
                throw new RefusedReply("a negative length other than -1 (nil)");
            } else if (!negative && numberType == '$' && number > MAX_REPLY_BYTES) {
                throw new RefusedReply(
                        "a bulk string of more than " + MAX_REPLY_BYTES + " bytes, more than a token state needs");
            } else if (!negative && numberType == '*' && number > MAX_ARRAY_ELEMENTS) {
                throw new RefusedReply("an array of more than " + MAX_ARRAY_ELEMENTS + " elements");
            }
        } else if (c == '\r' && digits > 0) {
            state = State.NUMBER_LF;
        } else {
            throw new RefusedReply("a header that is not a decimal number");
        }
    }

    private void numberEnded() throws RefusedReply {
        if (numberType == ':') {
            valueEnded();
        } else if (negative) {
            // Only -1 is nil; Jedis would read -0 as an empty string, and the two readings would part ways.
            if (number != 1) {
                throw new RefusedReply("a negative length other than -1 (nil)");
            }
            valueEnded();
        } else if (numberType == '$') {
            if (replyBytes + number + 2 > MAX_REPLY_BYTES) {
                throw new RefusedReply(
                        "a reply of more than " + MAX_REPLY_BYTES + " bytes, more than a token state needs");
            }
            bulkLeft = number;
            state = number == 0 ? State.BULK_CR : State.BULK;
        } else if (number == 0) {
            valueEnded();
        } else if (depth == MAX_DEPTH) {
            throw new RefusedReply("arrays nested more than " + MAX_DEPTH + " deep");
        } else {
            elementsLeft[depth++] = number;
            state = State.TYPE;
        }
    }

    /** A value ended: it counts as one element of the array it is in, and the reply ends with its outermost value. */
    private void valueEnded() {
        state = State.TYPE;
        while (depth > 0) {
            if (--elementsLeft[depth - 1] > 0) {
                return;
            }
            depth--;
        }
        replyBytes = 0;
    }

    /**
     * A reply the store never reads: too large, too deep or of the wrong kind. Its message names only
     * the limit it broke, never what Redis sent.
     */
    static final class RefusedReply extends IOException {
        private static final long serialVersionUID = 1L;

        RefusedReply(String what) {
            super(what);
        }
    }
}
