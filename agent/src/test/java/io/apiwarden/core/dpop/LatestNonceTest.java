package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.token.store.SharedNonce;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A server's latest nonce shared by a fleet: learnt once, read by the others, never the app's wait but once. */
class LatestNonceTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FleetStore store = new FleetStore();
    /** Runs what it is given when the test says: a store's answer that comes later. */
    private final Queue<Runnable> pending = new ArrayDeque<>();

    private final Executor later = pending::add;

    private LatestNonce atOnce(String apiName) {
        return LatestNonce.shared(store, Runnable::run, clock, Duration.ofMillis(500), ApiLog.of(apiName, true));
    }

    private void runPending() {
        for (Runnable r = pending.poll(); r != null; r = pending.poll()) {
            r.run();
        }
    }

    @Test
    void aNonceOneJvmLearntIsWrittenOnceAndTheNextJvmsFirstProofCarriesIt() {
        LatestNonce first = atOnce("a");
        LatestNonce second = atOnce("b");

        assertThat(first.current()).isNull();
        first.learn("n-1");
        first.learn("n-1");

        assertThat(store.writes).containsExactly("n-1");
        assertThat(second.current()).isEqualTo("n-1");
    }

    @Test
    void theStoreIsReadAtMostOnceASecondAndOnlyWhenProofsAreMade() {
        LatestNonce nonce = atOnce("c");
        nonce.current();
        store.value = "n-2";

        for (int i = 0; i < 100; i++) {
            assertThat(nonce.current()).isNull();
        }
        assertThat(store.reads).hasValue(1);

        clock.advance(LatestNonce.READ_EVERY);
        nonce.current();
        assertThat(store.reads).hasValue(2);
        assertThat(nonce.current()).isEqualTo("n-2");
    }

    @Test
    void aReadBegunBeforeANonceWasLearntDoesNotPutTheOldOneBack() {
        LatestNonce nonce = LatestNonce.shared(store, later, clock, Duration.ZERO, ApiLog.UNNAMED);
        store.value = "old";
        nonce.current();

        nonce.learn("new");
        runPending();

        assertThat(nonce.current()).isEqualTo("new");
        assertThat(store.value).isEqualTo("new");
    }

    @Test
    void aServerChangingItsNonceFasterThanTheStoreAnswersCostsOneWriteInFlightAndTheLatestAfterIt() {
        LatestNonce nonce = LatestNonce.shared(store, later, clock, Duration.ZERO, ApiLog.UNNAMED);
        for (int i = 1; i <= 50; i++) {
            nonce.learn("n-" + i);
        }
        assertThat(pending).as("one write queued, not fifty").hasSize(1);

        runPending();

        assertThat(store.writes).containsExactly("n-50");
    }

    @Test
    void whatTheStoreHoldsIsUsedOnlyWhenItIsANonce() {
        LatestNonce nonce = atOnce("d");
        store.value = "x".repeat(LatestNonce.MAX_LENGTH + 1);
        assertThat(nonce.current()).isNull();

        for (String bad : List.of("with space", "quote\"d", "back\\slash", "line\nbreak", "é")) {
            store.value = bad;
            clock.advance(LatestNonce.READ_EVERY);
            nonce.current();
            assertThat(nonce.current()).as(bad).isNull();
        }
        nonce.learn("bad nonce");
        assertThat(store.writes).isEmpty();
    }

    @Test
    void aStoreThatFailsLeavesEachJvmItsOwnNonceWithOneWarningThatNeverShowsTheNonce() {
        store.down = true;
        LatestNonce nonce = atOnce("e");
        try (LogCapture log = LogCapture.at("warn")) {
            assertThat(nonce.current()).isNull();
            nonce.learn("secretish-nonce-1");
            nonce.learn("secretish-nonce-2");

            assertThat(nonce.current()).isEqualTo("secretish-nonce-2");
            assertThat(log.text()).contains("DPoP nonces cannot be shared through the fleet's store");
            assertThat(log.text().lines()).hasSize(1);
            assertThat(log.text()).doesNotContain("secretish");
        }
        int readsWhileDown = store.reads.get();
        clock.advance(LatestNonce.READ_EVERY);
        store.down = false;
        store.value = "n-3";

        assertThat(nonce.current()).isEqualTo("secretish-nonce-2");
        assertThat(store.reads).as("not tried again before the pause ends").hasValue(readsWhileDown);
    }

    @Test
    void theStoreIsTriedAgainOnceThePauseAfterAFailureEnds() {
        store.down = true;
        LatestNonce nonce = atOnce("f");
        nonce.current();
        store.down = false;
        store.value = "n-4";

        clock.advance(LatestNonce.READ_EVERY);
        assertThat(nonce.current()).isNull();
        clock.advance(LatestNonce.PAUSE_AFTER_FAILURE);
        nonce.current();

        assertThat(nonce.current()).isEqualTo("n-4");
    }

    @Test
    void theFirstProofWaitsForTheFirstReadNoLongerThanTheStoresTimeOut() {
        LatestNonce nonce = LatestNonce.shared(store, later, clock, Duration.ofMillis(1), ApiLog.UNNAMED);
        store.value = "n-5";

        assertThat(nonce.current()).as("the read has not answered").isNull();
        runPending();

        assertThat(nonce.current()).isEqualTo("n-5");
    }

    @Test
    void aLocalNonceNeverTouchesAStoreAndNeverShowsItsNonce() {
        LatestNonce nonce = LatestNonce.local();
        nonce.learn("n-6");

        assertThat(nonce.current()).isEqualTo("n-6");
        assertThat(nonce.toString()).doesNotContain("n-6").contains("this JVM only");
        assertThat(atOnce("g").toString()).contains("the fleet's store");
    }

    /** The fleet's store, in memory. */
    private static final class FleetStore implements SharedNonce {
        volatile String value;
        volatile boolean down;
        final AtomicInteger reads = new AtomicInteger();
        final List<String> writes = new ArrayList<>();

        @Override
        public String read() throws StoreUnavailableException {
            reads.incrementAndGet();
            if (down) {
                throw new StoreUnavailableException("the fleet's store refused the connection");
            }
            return value;
        }

        @Override
        public synchronized void write(String nonce) throws StoreUnavailableException {
            if (down) {
                throw new StoreUnavailableException("the fleet's store refused the connection");
            }
            writes.add(nonce);
            value = nonce;
        }

        @Override
        public String describe() {
            return "the fleet's store";
        }

        @Override
        public void close() {}
    }
}
