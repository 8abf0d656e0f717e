package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.call.BodyReplay;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordedBodyTest {

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(List<ByteBuffer> buffers) {
        StringBuilder s = new StringBuilder();
        for (ByteBuffer b : buffers) {
            s.append(StandardCharsets.UTF_8.decode(b));
        }
        return s.toString();
    }

    @Test
    void aCompletedBodyReplaysTheSameBytesAsOftenAsAskedLeavingTheSentBuffersAsTheyWere() {
        RecordedBody body = new RecordedBody(1024);
        RecordedBody.Take take = body.begin();
        ByteBuffer first = bytes("hello, ");
        ByteBuffer direct = ByteBuffer.allocateDirect(5).put(bytes("world"));
        direct.flip();

        take.add(first);
        take.add(direct);
        take.add("!!".getBytes(StandardCharsets.UTF_8), 1, 1);
        assertThat(body.replay()).isEqualTo(BodyReplay.NOT_FINISHED);
        take.complete();

        assertThat(first.position()).isZero();
        assertThat(direct.remaining()).isEqualTo(5);
        assertThat(body.replay()).isEqualTo(BodyReplay.REPEATABLE);
        assertThat(body.length()).isEqualTo(13);
        assertThat(text(body.buffers())).isEqualTo("hello, world!");
        assertThat(text(body.buffers())).isEqualTo("hello, world!");
        assertThat(body.buffers()).allMatch(ByteBuffer::isReadOnly);
    }

    @Test
    void aBodyInOnePieceIsOneArrayOfItsLengthAndManyPiecesFewGrowingChunks() {
        RecordedBody one = new RecordedBody(1 << 20);
        RecordedBody.Take take = one.begin();
        take.add(bytes("x".repeat(300)));
        take.complete();
        assertThat(one.buffers()).hasSize(1).allMatch(b -> b.capacity() == 300 && b.remaining() == 300);

        RecordedBody many = new RecordedBody(1 << 20);
        RecordedBody.Take pieces = many.begin();
        byte[] piece = new byte[1000];
        for (int i = 0; i < 1000; i++) {
            java.util.Arrays.fill(piece, (byte) i);
            pieces.add(piece, 0, piece.length);
        }
        pieces.complete();
        List<ByteBuffer> chunks = many.buffers();
        // 1,000 pieces of 1,000 bytes: chunks double up to 64 KiB, so about 20, not 1,000.
        assertThat(chunks.size()).isLessThan(25);
        assertThat(chunks.stream().mapToInt(ByteBuffer::remaining).sum()).isEqualTo(1_000_000);
        ByteBuffer all = ByteBuffer.allocate(1_000_000);
        chunks.forEach(all::put);
        assertThat(all.get(0)).isEqualTo((byte) 0);
        assertThat(all.get(999_999)).isEqualTo((byte) 999);
        assertThat(all.get(500_000)).isEqualTo((byte) 500);
    }

    @Test
    void exactlyTheBoundIsKeptAndOneByteMoreIsTooLargeAndFreed() {
        RecordedBody fits = new RecordedBody(10);
        RecordedBody.Take take = fits.begin();
        take.add(bytes("01234"));
        take.add(bytes("56789"));
        take.complete();
        assertThat(fits.replay()).isEqualTo(BodyReplay.REPEATABLE);

        RecordedBody over = new RecordedBody(10);
        RecordedBody.Take more = over.begin();
        more.add(bytes("01234"));
        more.add(bytes("567890"));
        assertThat(over.length()).isZero();
        more.add(bytes("1"));
        more.complete();
        assertThat(over.replay()).isEqualTo(BodyReplay.TOO_LARGE_TO_REPLAY);
        assertThatThrownBy(over::buffers).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aDeclaredLengthOverTheBoundIsTooLargeBeforeAnythingIsSent() {
        RecordedBody body = new RecordedBody(10);

        assertThat(body.fits(10)).isTrue();
        assertThat(body.fits(-1)).isTrue();
        assertThat(body.fits(11)).isFalse();
        assertThat(body.replay()).isEqualTo(BodyReplay.TOO_LARGE_TO_REPLAY);
    }

    @Test
    void aFailedOrCancelledBodyIsNotFinishedEvenIfItCompletesAfterwards() {
        RecordedBody body = new RecordedBody(100);
        RecordedBody.Take take = body.begin();
        take.add(bytes("half"));
        take.abandon();
        take.add(bytes(" and the rest"));
        take.complete();

        assertThat(body.replay()).isEqualTo(BodyReplay.NOT_FINISHED);
        assertThat(body.length()).isZero();
    }

    @Test
    void aNewSendingStartsTheRecordingAgainAndTheOldOneIsIgnored() {
        RecordedBody body = new RecordedBody(100);
        RecordedBody.Take first = body.begin();
        first.add(bytes("first try"));
        RecordedBody.Take second = body.begin();
        second.add(bytes("second"));
        first.add(bytes(" late"));
        first.complete();
        assertThat(body.replay()).isEqualTo(BodyReplay.NOT_FINISHED);

        second.complete();

        assertThat(text(body.buffers())).isEqualTo("second");
    }

    @Test
    void aTakeIsRecordingOnlyUntilItEndsOutgrowsTheBoundOrIsReplaced() {
        RecordedBody body = new RecordedBody(8);
        RecordedBody.Take completed = body.begin();
        assertThat(completed.isRecording()).isTrue();
        completed.complete();
        assertThat(completed.isRecording()).isFalse();

        RecordedBody.Take replaced = body.begin();
        RecordedBody.Take tooLarge = body.begin();
        assertThat(replaced.isRecording()).isFalse();
        tooLarge.add(bytes("nine bytes"));
        assertThat(tooLarge.isRecording()).isFalse();

        RecordedBody.Take dropped = body.begin();
        body.drop();
        assertThat(dropped.isRecording()).isFalse();
    }

    @Test
    void aDroppedRecordingFreesItsBytesAndRecordsNoMore() {
        RecordedBody body = new RecordedBody(100);
        RecordedBody.Take take = body.begin();
        take.add(bytes("body"));
        take.complete();

        body.drop();
        body.begin().add(bytes("after the call"));

        assertThat(body.length()).isZero();
        assertThat(body.isComplete()).isFalse();
        assertThat(body.replay()).isEqualTo(BodyReplay.NOT_FINISHED);
    }

    @Test
    void anEmptyBodyCompletedIsReplayedEmpty() {
        RecordedBody body = new RecordedBody(100);
        body.begin().complete();

        assertThat(body.replay()).isEqualTo(BodyReplay.REPEATABLE);
        assertThat(body.buffers()).isEmpty();
    }
}
