package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A hook that needs the configuration waits for the agent's start, and never for long or for nothing. */
class AgentStartTest {
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseEveryStart() {
        release.countDown();
    }

    @Test
    void aWaiterGoesOnOnceTheStartIsOverAndSeesWhatItDid() throws Exception {
        AtomicBoolean configured = new AtomicBoolean();
        AgentStart.begin(() -> {
            await(release);
            configured.set(true);
        });
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            AgentStart.await();
            return configured.get();
        });
        release.countDown();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void theStartItselfNeverWaitsForItself() throws Exception {
        CompletableFuture<Boolean> ran = new CompletableFuture<>();
        AgentStart.begin(() -> {
            AgentStart.await();
            ran.complete(true);
        });

        assertThat(ran.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aStartThatHangsHoldsWaitersOnlyUntilItsOneDeadline() throws Exception {
        AtomicBoolean over = new AtomicBoolean();
        AgentStart.begin(
                () -> {
                    await(release);
                    over.set(true);
                },
                50);

        // Both go on although the start still hangs: the first at its deadline, the second at once.
        CompletableFuture.runAsync(AgentStart::await).get(5, TimeUnit.SECONDS);
        CompletableFuture.runAsync(AgentStart::await).get(5, TimeUnit.SECONDS);
        assertThat(over).isFalse();
    }

    @Test
    void aStartThatFailsReleasesItsWaiters() throws Exception {
        AgentStart.begin(() -> {
            throw new IllegalStateException("broken");
        });

        CompletableFuture.runAsync(AgentStart::await).get(5, TimeUnit.SECONDS);
    }

    @Test
    void anEarlierStartEndingDoesNotReleaseTheWaitersOfALaterOne() throws Exception {
        CountDownLatch releaseFirst = new CountDownLatch(1);
        AtomicReference<Thread> first = new AtomicReference<>();
        AgentStart.begin(() -> {
            first.set(Thread.currentThread());
            await(releaseFirst);
        });
        AtomicBoolean laterOver = new AtomicBoolean();
        AgentStart.begin(() -> {
            await(release);
            laterOver.set(true);
        });
        releaseFirst.countDown();
        while (first.get() == null) {
            Thread.onSpinWait();
        }
        first.get().join(5_000);

        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            AgentStart.await();
            return laterOver.get();
        });
        release.countDown();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
