package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The check under Jedis's parser, on its own: what passes, what is refused, whatever the reads' sizes. */
class ReplyLimitsTest {
    /** Reads everything through the check, {@code chunk} bytes at a time at most. */
    private static byte[] readAll(byte[] sent, int chunk) throws IOException {
        InputStream in = new ReplyLimits(new ByteArrayInputStream(sent));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[chunk];
        for (int n; (n = in.read(buffer, 0, chunk)) != -1; ) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** HMGET's answer with the largest generation and the largest record the store can hold (sealed, two 64 KiB tokens). */
    private static byte[] largestStateReply() {
        String generation = Long.toString(Long.MAX_VALUE);
        String record = "r".repeat(StateCodec.MAX_RECORD_BYTES);
        return bytes("*2\r\n$" + generation.length() + "\r\n" + generation + "\r\n$" + record.length() + "\r\n" + record
                + "\r\n");
    }

    @Test
    void everyReplyTheStoreReadsPassesUnchangedWhateverTheReadSizes() throws Exception {
        byte[] replies = bytes(
                "+OK\r\n-ERR wrong\rpass\r\r\n:-2\r\n:9223372036854775807\r\n$-1\r\n*-1\r\n*0\r\n$0\r\n\r\n"
                        + "*3\r\n$7\r\nmessage\r\n$3\r\nkey\r\n$17\r\n30000 1234:abcdef\r\n*2\r\n$4\r\npong\r\n$0\r\n\r\n");
        byte[] largest = largestStateReply();
        for (int chunk : new int[] {1, 2, 7, 8192}) {
            assertThat(readAll(replies, chunk)).as("chunks of " + chunk).isEqualTo(replies);
            assertThat(readAll(largest, chunk)).as("chunks of " + chunk).isEqualTo(largest);
        }
        byte[] twice = new byte[largest.length * 2];
        System.arraycopy(largest, 0, twice, 0, largest.length);
        System.arraycopy(largest, 0, twice, largest.length, largest.length);
        assertThat(readAll(twice, 8192))
                .as("the limit is each reply's, not the connection's")
                .isEqualTo(twice);
    }

    @Test
    void aByteMoreThanTheLargestStateIsRefused() {
        // 41 bytes of headers, the generation and line ends around the record: one byte over the limit in all.
        String record = "r".repeat(ReplyLimits.MAX_REPLY_BYTES - 40);
        byte[] reply = bytes("*2\r\n$19\r\n9223372036854775807\r\n$" + record.length() + "\r\n" + record + "\r\n");
        assertThatThrownBy(() -> readAll(reply, 8192))
                .isInstanceOf(ReplyLimits.RefusedReply.class)
                .hasMessage("a reply of more than " + ReplyLimits.MAX_REPLY_BYTES
                        + " bytes, more than a token state needs");
    }

    @Test
    void aHeaderIsRefusedAtTheDigitThatBreaksTheLimitBeforeItsLineEnds() {
        // One byte at a time: the refusal comes while the header is still being read, before Jedis could act on it.
        assertThatThrownBy(() -> readAll(bytes("$2000000000"), 1)).hasMessageContaining("a bulk string of more than");
        assertThatThrownBy(() -> readAll(bytes("*2000000000"), 1)).hasMessage("an array of more than 3 elements");
        assertThatThrownBy(() -> readAll(bytes("*1\r\n*1\r\n"), 1)).hasMessage("arrays nested more than 1 deep");
        assertThatThrownBy(() -> readAll(bytes(":12345678901234567890"), 1))
                .hasMessage("a number of more than 19 digits");
        assertThatThrownBy(() -> readAll(bytes("$1x\r\n"), 1)).hasMessage("a header that is not a decimal number");
        assertThatThrownBy(() -> readAll(bytes("$1\r\nab\r\n"), 1))
                .hasMessage("a bulk string longer than its header says");
        assertThatThrownBy(() -> readAll(bytes("_\r\n"), 1)).hasMessageContaining("(first byte 0x5f)");
    }
}
