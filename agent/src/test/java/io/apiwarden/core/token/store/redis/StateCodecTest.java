package io.apiwarden.core.token.store.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Damaged records: each is refused with a message that says what to do, and none is read past its end. */
class StateCodecTest {
    private static final String KEY = "apiwarden:0123456789abcdef:state";
    private static final TokenState STATE = new TokenState(3, "access-x", null, null, "refresh-x");
    private final StateCodec plain = new StateCodec(null, new SecureRandom());

    private void refused(byte[] stored, String why) {
        assertThatThrownBy(() -> plain.decode(KEY, 3, stored))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessage("the token state at " + KEY + " " + why + ": delete that key, or set apiwarden.store.key "
                        + "to a key of its own for this client");
    }

    @Test
    void aRecordReadsBackAsWritten() throws Exception {
        assertThat(plain.decode(KEY, 3, plain.encode(KEY, STATE))).isEqualTo(STATE);
    }

    @Test
    void aDpopBoundTokensRecordIsTheRecordOfTheSameTokensUnbound() throws Exception {
        // The bound key lives beside the record (RedisTokenStore), so that agents of earlier versions in a fleet
        // being upgraded still read every record the newer ones write.
        assertThat(plain.encode(KEY, STATE.boundTo("jkt-of-key-a"))).isEqualTo(plain.encode(KEY, STATE));
    }

    @Test
    void emptyCutShortOrLongerRecordsAreRefused() throws Exception {
        byte[] stored = plain.encode(KEY, STATE);

        refused(new byte[0], "is empty");
        refused(Arrays.copyOf(stored, stored.length - 3), "is cut short or damaged");
        refused(Arrays.copyOf(stored, stored.length + 1), "has bytes this version does not know");
        refused(new byte[] {9, 0}, "has an unknown format (9)");
    }

    @Test
    void aLengthBeyondAnyTokenIsRefusedWithoutAllocatingIt() {
        byte[] huge = ByteBuffer.allocate(6)
                .put(StateCodec.PLAIN)
                .put((byte) 1)
                .putInt(Integer.MAX_VALUE)
                .array();
        refused(huge, "is cut short or damaged");
    }

    @Test
    void unknownFieldsAreRefused() {
        refused(new byte[] {StateCodec.PLAIN, 16}, "has bytes this version does not know");
    }
}
