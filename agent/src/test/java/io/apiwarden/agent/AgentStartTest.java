package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A hook that needs the configuration waits for the agent's start, and never for long or for nothing. */
class AgentStartTest {

    @Test
    void aWaiterGoesOnOnceTheStartIsOverAndSeesWhatItDid() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean configured = new AtomicBoolean();
        AgentStart.begin(() -> {
            await(release);
            configured.set(true);
        });
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            AgentStart.await();
            return configured.get();
        });

        assertThat(waiter).isNotDone();
        release.countDown();

        assertThat(waiter.get(5, TimeUnit.SECONDS)).isTrue();
        AgentStart.await(); // over: returns at once
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
    void aStartThatHangsHoldsAWaiterOnlyUpToItsLimit() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AgentStart.begin(() -> await(release));
        try {
            CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> AgentStart.await(50));

            waiter.get(5, TimeUnit.SECONDS); // gave up after its 50 ms rather than wait for the start
            assertThat(waiter).isCompleted();
        } finally {
            release.countDown();
        }
    }

    @Test
    void aStartThatFailsReleasesItsWaiters() throws Exception {
        AgentStart.begin(() -> {
            throw new IllegalStateException("broken");
        });

        CompletableFuture.runAsync(AgentStart::await).get(5, TimeUnit.SECONDS);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
