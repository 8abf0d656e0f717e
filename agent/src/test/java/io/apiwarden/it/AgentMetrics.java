package io.apiwarden.it;

import io.apiwarden.testing.Eventually;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The agent's Prometheus endpoint in an app JVM, read from the test: a way to know what the agent
 * has done without looking inside it (the gate has closed once {@code apiwarden_throttled} is 1).
 */
final class AgentMetrics {
    private static final HttpClient SCRAPER = HttpClient.newHttpClient();

    private AgentMetrics() {}

    /** A port nothing listens on now, for an app's Prometheus endpoint or for a collector that is not there. */
    static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    /**
     * Scrapes {@code port} until a line of the exposition is {@code line}. Fails if the app ends first
     * or after a minute; scrapes that find no endpoint yet (the app is starting) are tried again.
     */
    static void awaitLine(int port, String line, CompletableFuture<AgentJvm.Result> app) throws Exception {
        HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .build();
        Eventually.await("'" + line + "' on the metrics endpoint", Duration.ofMinutes(1), () -> {
            if (app.isDone()) {
                throw new AssertionError("the app ended before its agent said '" + line + "': " + app.join());
            }
            try {
                return SCRAPER.send(scrape, HttpResponse.BodyHandlers.ofString())
                        .body()
                        .lines()
                        .anyMatch(line::equals);
            } catch (IOException notYetListening) {
                // the endpoint starts with the agent; try again
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }
}
