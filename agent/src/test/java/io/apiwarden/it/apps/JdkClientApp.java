package io.apiwarden.it.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A plain app with no auth code, run in its own JVM by the agent's integration tests. Each
 * argument is one step:
 * <ul>
 *   <li>{@code send:URL} and {@code async:URL}: one GET, prints {@code STATUS code body};
 *   <li>{@code post-stream:SIZE:URL}: one POST of a streamed body ({@link StreamedBody}, SIZE bytes, no
 *       declared length) through {@code send};
 *   <li>{@code print:URL}: one GET, prints each line of the body as {@code BODY line};
 *   <li>{@code await:PATH}: waits (a minute at most) until the test creates the file PATH, to let it act between steps;
 *   <li>{@code clock:}: prints {@code CLOCK millis}, the wall clock, to time what follows the last step;
 *   <li>{@code concurrent:N:URL}: N GETs at once, half sent with {@code send} on their own
 *       threads and half with {@code sendAsync}, prints {@code STATUSES {code=count}}.
 * </ul>
 */
public final class JdkClientApp {
    private JdkClientApp() {}

    private static final List<CompletableFuture<HttpResponse<String>>> fired = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String step : args) {
            int colon = step.indexOf(':');
            String kind = step.substring(0, colon);
            String rest = step.substring(colon + 1);
            switch (kind) {
                case "send":
                    print(client.send(get(rest), BodyHandlers.ofString()));
                    break;
                case "async":
                    print(client.sendAsync(get(rest), BodyHandlers.ofString()).get(60, TimeUnit.SECONDS));
                    break;
                case "post-stream":
                    print(client.send(postStream(rest), BodyHandlers.ofString()));
                    break;
                case "print":
                    printOnceListening(client, rest);
                    break;
                case "await":
                    awaitFile(java.nio.file.Paths.get(rest));
                    break;
                case "fire":
                    // Sent without waiting for the answer, which comes before the app ends.
                    fired.add(client.sendAsync(get(rest), BodyHandlers.ofString()));
                    break;
                case "touch":
                    // Tells a test waiting on the file that the steps before it are done.
                    java.nio.file.Files.createFile(java.nio.file.Paths.get(rest));
                    break;
                case "clock":
                    System.out.println("CLOCK " + System.currentTimeMillis());
                    break;
                case "concurrent":
                    int n = Integer.parseInt(rest.substring(0, rest.indexOf(':')));
                    concurrent(client, n, rest.substring(rest.indexOf(':') + 1));
                    break;
                default:
                    throw new IllegalArgumentException("unknown step " + step);
            }
        }
        for (CompletableFuture<HttpResponse<String>> f : fired) {
            System.out.println("FIRED " + f.get(2, TimeUnit.MINUTES).statusCode());
        }
    }

    /** Waits, for a minute at most, until the test has created {@code file}. */
    static void awaitFile(java.nio.file.Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!java.nio.file.Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the test never created " + file);
            }
            Thread.sleep(10);
        }
    }

    private static HttpRequest get(String url) {
        return HttpRequest.newBuilder(URI.create(url)).build();
    }

    private static HttpRequest postStream(String sizeAndUrl) {
        int size = Integer.parseInt(sizeAndUrl.substring(0, sizeAndUrl.indexOf(':')));
        String url = sizeAndUrl.substring(sizeAndUrl.indexOf(':') + 1);
        return HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.fromPublisher(StreamedBody.of(StreamedBody.content(size))))
                .build();
    }

    private static void print(HttpResponse<String> response) {
        System.out.println("STATUS " + response.statusCode() + " " + response.body());
    }

    private static void concurrent(HttpClient client, int n, String url) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(n / 2 + 1);
        List<CompletableFuture<Integer>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                calls.add(client.sendAsync(get(url), BodyHandlers.ofString()).thenApply(HttpResponse::statusCode));
            } else {
                calls.add(CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return client.send(get(url), BodyHandlers.ofString())
                                        .statusCode();
                            } catch (Exception e) {
                                return -1;
                            }
                        },
                        threads));
            }
        }
        TreeMap<Integer, Integer> counts = new TreeMap<>();
        try {
            for (CompletableFuture<Integer> call : calls) {
                counts.merge(call.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
        } finally {
            // Even when a call fails the step: its threads must not keep the JVM from ending.
            threads.shutdownNow();
        }
        System.out.println("STATUSES " + counts);
    }

    /**
     * One GET of {@code url}, its body printed line by line; a refused connection is tried again for up to 10 s, as
     * the agent's Prometheus endpoint opens with the telemetry, once the app's first call has ended.
     */
    private static void printOnceListening(HttpClient client, String url) throws Exception {
        long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                client.send(get(url), BodyHandlers.ofString())
                        .body()
                        .lines()
                        .forEach(l -> System.out.println("BODY " + l));
                return;
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() - giveUp > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
