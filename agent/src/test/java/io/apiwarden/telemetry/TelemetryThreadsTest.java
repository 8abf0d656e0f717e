package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.testing.Eventually;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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

    @Test
    void thePrometheusEndpointStopsAtExitAndItsDispatcherThreadEnds() throws Exception {
        PrometheusEndpoint endpoint =
                PrometheusEndpoint.bind(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), "127.0.0.1", 0);
        endpoint.open();
        URI metrics = URI.create(endpoint.url());
        assertThat(HttpClient.newHttpClient()
                        .send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode())
                .isEqualTo(200);

        TelemetryThreads.runStopsAtExit();

        assertThat(catchThrowable(() -> new Socket(metrics.getHost(), metrics.getPort()).close()))
                .as("the endpoint's port after the exit")
                .isInstanceOf(ConnectException.class);
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
