package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.testing.Eventually;
import io.opentelemetry.api.trace.SpanContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PendingReplayTest {
    /** A call whose replay's begin waits, as the SDK's first span can while its classes load. */
    private static final class SlowToBegin extends Pending<List<String>> {
        final CountDownLatch beginning = new CountDownLatch(1);
        final CountDownLatch mayBegin = new CountDownLatch(1);

        SlowToBegin() {
            super(SpanContext.getInvalid());
        }

        @Override
        List<String> begin(Telemetry real) {
            beginning.countDown();
            try {
                mayBegin.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            List<String> told = new CopyOnWriteArrayList<>();
            told.add("begun");
            return told;
        }

        @Override
        List<String> nothing() {
            return new ArrayList<>();
        }
    }

    @Test
    void anAppThreadEndingTheCallWhileItIsReplayedDoesNotWaitAndItsStepIsToldInOrder() throws Exception {
        SlowToBegin call = new SlowToBegin();
        call.record(told -> told.add("first"));
        Thread replay = new Thread(() -> call.replay(Telemetry.NOOP), "replay");
        replay.start();
        call.beginning.await();

        try {
            // The app's thread: it must return while the replay's begin is still under way. The bound only ends
            // a failing run (a record that waits for the replay would wait for ever).
            CompletableFuture.runAsync(() -> call.record(told -> told.add("second")))
                    .get(30, TimeUnit.SECONDS);
        } finally {
            call.mayBegin.countDown();
        }
        replay.join();

        assertThat(call.replayed()).containsExactly("begun", "first", "second");
        call.record(told -> told.add("third"));
        assertThat(call.replayed()).containsExactly("begun", "first", "second", "third");
    }

    @Test
    void whatAsksForTheReplayedCallWhileItIsReplayedGetsItOnceTheReplayEnds() throws Exception {
        SlowToBegin call = new SlowToBegin();
        call.record(told -> told.add("first"));
        Thread replay = new Thread(() -> call.replay(Telemetry.NOOP), "replay");
        replay.start();
        call.beginning.await();

        // A refresh's parent or an attempt's trace context: without the replayed span it would start a trace of its
        // own.
        CompletableFuture<List<String>> asked = new CompletableFuture<>();
        Thread asker = new Thread(() -> asked.complete(call.replayed()), "asker");
        asker.start();
        Eventually.await(
                "the asker waits or has its answer",
                () -> asker.getState() == Thread.State.WAITING || asker.getState() == Thread.State.TERMINATED);
        call.mayBegin.countDown();
        replay.join();

        assertThat(asked.get(30, TimeUnit.SECONDS)).containsExactly("begun", "first");
    }
}
