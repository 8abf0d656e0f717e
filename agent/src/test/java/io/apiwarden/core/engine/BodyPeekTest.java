package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The bound on holding an error body, on a clock the test moves: one byte a read, each read 100 ms later. */
class BodyPeekTest {
    private static final Duration BOUND = Duration.ofMillis(250);
    private final AtomicLong nanos = new AtomicLong();

    /** Hands out one byte a read, as a body trickling at 10 bytes a second. */
    private InputStream trickling(String body) {
        return new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                nanos.addAndGet(Duration.ofMillis(100).toNanos());
                return super.read(b, off, Math.min(len, 1));
            }
        };
    }

    @Test
    void aPrefixNotWholeWithinTheBoundIsWhatCameSoFarAndLate() throws Exception {
        BodyPeek.Prefix prefix =
                BodyPeek.read(trickling("{\"error\":\"invalid_token\"}"), 100, new BodyPeek.Watch(BOUND, nanos::get));

        assertThat(prefix.inTime).isFalse();
        assertThat(new String(prefix.bytes, StandardCharsets.US_ASCII)).isEqualTo("{\"e");
    }

    @Test
    void aPrefixWholeWithinTheBoundIsInTime() throws Exception {
        BodyPeek.Prefix prefix = BodyPeek.read(trickling("{}"), 100, new BodyPeek.Watch(BOUND, nanos::get));

        assertThat(prefix.inTime).isTrue();
        assertThat(new String(prefix.bytes, StandardCharsets.US_ASCII)).isEqualTo("{}");
    }

    @Test
    void theLimitEndsTheReadInTime() throws Exception {
        BodyPeek.Prefix prefix = BodyPeek.read(
                new ByteArrayInputStream(new byte[20_000]), 10_001, new BodyPeek.Watch(BOUND, nanos::get));

        assertThat(prefix.inTime).isTrue();
        assertThat(prefix.bytes).hasSize(10_001);
    }

    @Test
    void aPeekedBodyIsPutBackWholeAndTheSlowPrefixSaysSo() throws Exception {
        InputStream[] putBack = new InputStream[1];

        assertThatThrownBy(() -> BodyPeek.peek(
                        trickling("{\"error\":1}"), 100, new BodyPeek.Watch(BOUND, nanos::get), BOUND, whole -> {
                            putBack[0] = whole;
                        }))
                .isInstanceOf(BodyPeek.TooSlow.class);
        assertThat(new String(putBack[0].readAllBytes(), StandardCharsets.US_ASCII))
                .isEqualTo("{\"error\":1}");
    }

    @Test
    void aPrefixInTimeIsReturnedAndTheBodyPutBackWhole() throws Exception {
        InputStream[] putBack = new InputStream[1];

        byte[] prefix = BodyPeek.peek(
                new ByteArrayInputStream("{}".getBytes(StandardCharsets.US_ASCII)),
                100,
                Duration.ofSeconds(5),
                whole -> putBack[0] = whole);

        assertThat(new String(prefix, StandardCharsets.US_ASCII)).isEqualTo("{}");
        assertThat(new String(putBack[0].readAllBytes(), StandardCharsets.US_ASCII))
                .isEqualTo("{}");
    }
}
