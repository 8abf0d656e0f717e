package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.testing.Eventually;
import java.net.http.HttpClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TelemetryThreadsTest {
    @Test
    void theSelectorThreadOfAClientMadeInTheGroupEndsAndOneMadeOutsideItDoesNot() throws Exception {
        ThreadGroup group = new ThreadGroup("telemetry-threads-test");
        AtomicReference<HttpClient> ours = new AtomicReference<>();
        Thread maker = new Thread(group, () -> ours.set(HttpClient.newHttpClient()), "maker");
        maker.start();
        maker.join();
        HttpClient theApps = HttpClient.newHttpClient();
        Thread oursSelector = selectorsIn(group).get(0);
        Thread appsSelector = selectorsIn(Thread.currentThread().getThreadGroup()).stream()
                .filter(t -> t.getThreadGroup() != group)
                .filter(Thread::isAlive)
                .reduce((a, b) -> b)
                .orElseThrow();

        assertThat(TelemetryThreads.endSelectorThreads(group)).isEqualTo(1);

        Eventually.await("the group's selector thread ended", () -> !oursSelector.isAlive());
        assertThat(appsSelector.isAlive())
                .as("the app's client's selector thread")
                .isTrue();
        assertThat(theApps).isNotNull();
        assertThat(ours.get()).isNotNull();
    }

    private static List<Thread> selectorsIn(ThreadGroup group) {
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        List<Thread> selectors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (threads[i].getName().endsWith("-SelectorManager")) {
                selectors.add(threads[i]);
            }
        }
        return selectors;
    }
}
