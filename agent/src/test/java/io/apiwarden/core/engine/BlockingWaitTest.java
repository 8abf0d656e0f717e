package io.apiwarden.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.call.Deadline;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The blocking face's waits, with each client's own cancel (Apache's abort, OkHttp's cancel). */
class BlockingWaitTest {
    private final FakeTimer timer = FakeTimer.onTestTime(MutableClock.atEpochDay());

    @Test
    void aDoneFutureIsItsValueWithoutListeningForACancel() throws IOException {
        FakeCancel cancel = new FakeCancel(true);
        cancel.signal.complete(null);

        assertThat(BlockingWait.await(CompletableFuture.completedFuture("token"), Deadline.NONE, cancel, "a token"))
                .isEqualTo("token");
        assertThat(cancel.listened).isFalse();
    }

    @Test
    void aCancelEndsTheWaitWithTheClientsError() {
        FakeCancel cancel = new FakeCancel(true);
        cancel.signal.complete(null);

        assertThatThrownBy(() -> BlockingWait.await(new CompletableFuture<>(), Deadline.NONE, cancel, "a token"))
                .hasMessage("cancelled by the app");
        assertThat(cancel.stopped).isTrue();
    }

    @Test
    void aClientMayLetACancelledWaitEndWithoutAValue() throws IOException {
        FakeCancel cancel = new FakeCancel(false);
        cancel.signal.complete(null);

        assertThat(BlockingWait.await(new CompletableFuture<String>(), Deadline.NONE, cancel, "a token"))
                .isNull();
        assertThat(cancel.stopped).isTrue();
    }

    @Test
    void aRequestCancelledBeforeTheWaitRunsTheHandedStepAtOnceAndEndsTheWaitWithTheClientsError() {
        // As Apache's requests do: a step handed to an aborted request is cancelled as it is handed.
        BlockingWait.CancellableRequest aborted =
                step -> assertThat(step.getAsBoolean()).isTrue();

        assertThatThrownBy(() -> BlockingWait.await(
                        new CompletableFuture<>(),
                        Deadline.NONE,
                        BlockingWait.handedTo(aborted, () -> new IOException("Request aborted")),
                        "a token"))
                .hasMessage("Request aborted");
    }

    @Test
    void aRequestTheAppCannotCancelWaitsForItsFuture() throws IOException {
        BlockingWait.Cancel never = BlockingWait.handedTo(null, () -> new IOException("never thrown"));

        assertThat(BlockingWait.await(CompletableFuture.supplyAsync(() -> "token"), Deadline.NONE, never, "a token"))
                .isEqualTo("token");
    }

    @Test
    void aFailedFutureEndsTheWaitWithoutAValue() throws IOException {
        assertThat(BlockingWait.await(
                        CompletableFuture.<String>failedFuture(new IllegalStateException("refused")),
                        Deadline.NONE,
                        new FakeCancel(true),
                        "a token"))
                .isNull();
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheThreadsFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> BlockingWait.await(
                            new CompletableFuture<>(), Deadline.NONE, new FakeCancel(true), "a token"))
                    .isInstanceOf(InterruptedIOException.class)
                    .hasMessage("interrupted while waiting for a token");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aSleepTheAppCancelsEndsAtOnceWithTheClientsErrorAndItsTimerCancelled() {
        FakeCancel cancel = new FakeCancel(true);
        cancel.signal.complete(null);

        assertThatThrownBy(() -> BlockingWait.sleep(timer, Duration.ofMinutes(1), cancel))
                .hasMessage("cancelled by the app");
        assertThat(timer.givenUp()).isEqualTo(1);
        assertThat(cancel.stopped).isTrue();
    }

    @Test
    void aSleepEndsWhenItsTimerFires() throws IOException {
        FakeTimer firing = FakeTimer.atOnce(MutableClock.atEpochDay());
        FakeCancel cancel = new FakeCancel(true);

        BlockingWait.sleep(firing, Duration.ofSeconds(3), cancel);

        assertThat(firing.delays()).containsExactly(Duration.ofSeconds(3));
        assertThat(cancel.stopped).isTrue();
    }

    /** A client's cancel whose signal the test completes. */
    private static final class FakeCancel implements BlockingWait.Cancel {
        final CompletableFuture<Void> signal = new CompletableFuture<>();
        final boolean fails;
        boolean listened;
        boolean stopped;

        FakeCancel(boolean fails) {
            this.fails = fails;
        }

        @Override
        public CompletableFuture<?> listen() {
            listened = true;
            return signal;
        }

        @Override
        public void stopListening() {
            stopped = true;
        }

        @Override
        public void throwIfCancelled() throws IOException {
            if (fails && signal.isDone()) {
                throw new IOException("cancelled by the app");
            }
        }
    }
}
