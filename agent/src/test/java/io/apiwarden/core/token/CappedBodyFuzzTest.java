package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** A body cut into any chunks: kept whole within the cap, stopped at the first chunk beyond it. */
class CappedBodyFuzzTest {

    @Property(tries = 300)
    void aBodyIsKeptWholeWithinTheCapAndStoppedBeyondIt(
            @ForAll("chunkings") List<byte[]> chunks, @ForAll @IntRange(min = 0, max = 3000) int limit) {
        CappedBody body = CappedBody.keeping(limit, -1);
        CappedBodyTest.RecordingSubscription s = new CappedBodyTest.RecordingSubscription();
        body.onSubscribe(s);
        List<Byte> sent = new ArrayList<>();
        int delivered = 0;
        for (byte[] chunk : chunks) {
            if (s.cancelled) {
                break;
            }
            assertThat(s.requested)
                    .as("a chunk is delivered only when asked for")
                    .isGreaterThan(delivered);
            body.onNext(List.of(ByteBuffer.wrap(chunk)));
            delivered++;
            for (byte b : chunk) {
                sent.add(b);
            }
        }
        if (!s.cancelled) {
            body.onComplete();
        }

        CompletableFuture<byte[]> result = body.getBody().toCompletableFuture();
        int total = chunks.stream().mapToInt(c -> c.length).sum();
        if (total <= limit) {
            assertThat(s.cancelled).isFalse();
            assertThat(result.join()).containsExactly(toArray(sent));
        } else {
            assertThat(s.cancelled).isTrue();
            assertThat(sent.size())
                    .as("stopped at the chunk that crossed the cap")
                    .isGreaterThan(limit)
                    .isLessThanOrEqualTo(limit
                            + chunks.stream().mapToInt(c -> c.length).max().orElse(0));
            assertThat(result.handle((b, e) -> e)).isCompletedWithValueMatching(e -> e instanceof CappedBody.TooLarge);
        }
    }

    @Provide
    Arbitrary<List<byte[]>> chunkings() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(700).list().ofMaxSize(12);
    }

    private static byte[] toArray(List<Byte> bytes) {
        byte[] a = new byte[bytes.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = bytes.get(i);
        }
        return a;
    }
}
