package io.apiwarden.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.testing.Eventually;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The check the adapter suite relies on to say a wait holds no thread can see one that does. */
class ParkedThreadsTest {

    @Test
    void aThreadSleepingInTheAgentsCodeIsFoundAndOneSleepingInTheTestsIsNot() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        Thread agents = new Thread(
                () -> {
                    try {
                        new SystemDelayScheduler().sleep(Duration.ofMinutes(1));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "held-by-the-agent");
        Thread tests = new Thread(
                () -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "held-by-the-test");
        agents.start();
        tests.start();
        try {
            ParkedThreads.Watch watch = new ParkedThreads.Watch(Duration.ofMillis(50));
            Eventually.settled(
                    Eventually.PATIENCE,
                    () -> {
                        watch.sample();
                        return watch.held();
                    },
                    held -> !held.isEmpty());

            assertThat(watch.held())
                    .singleElement()
                    .asString()
                    .startsWith("held-by-the-agent at ")
                    .contains("SystemDelayScheduler.sleep");
        } finally {
            agents.interrupt();
            tests.interrupt();
        }
    }
}
