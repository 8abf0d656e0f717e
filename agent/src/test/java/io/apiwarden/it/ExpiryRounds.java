package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.testing.Eventually;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Several JVMs that stay up while the server revokes their token again and again: in each round
 * every JVM makes concurrent calls, and between rounds the test revokes every access token, so
 * each round after the first starts with an expiry the whole fleet meets at once.
 */
final class ExpiryRounds {
    private final Supplier<AgentJvm> jvm;
    private final Path dir;
    private final String apiUrl;
    private final String revokeUrl;

    ExpiryRounds(Supplier<AgentJvm> jvm, Path dir, String apiUrl, String revokeUrl) {
        this.jvm = jvm;
        this.dir = dir;
        this.apiUrl = apiUrl;
        this.revokeUrl = revokeUrl;
    }

    /** Runs {@code expiries + 1} rounds of {@code calls} concurrent calls in each of {@code jvms} JVMs; returns their results. */
    List<AgentJvm.Result> run(int jvms, int expiries, int calls) throws Exception {
        List<CompletableFuture<AgentJvm.Result>> running = new ArrayList<>();
        for (int j = 0; j < jvms; j++) {
            List<String> steps = new ArrayList<>();
            for (int round = 0; round <= expiries; round++) {
                steps.add("await:" + dir.resolve("round-" + round));
                steps.add("concurrent:" + calls + ":" + apiUrl);
                steps.add("touch:" + dir.resolve("done-" + round + "-" + j));
            }
            running.add(jvm.get().runInBackground(JdkClientApp.class, steps.toArray(new String[0])));
        }
        for (int round = 0; round <= expiries; round++) {
            if (round > 0) {
                revoke();
            }
            Files.createFile(dir.resolve("round-" + round));
            for (int j = 0; j < jvms; j++) {
                awaitFile(dir.resolve("done-" + round + "-" + j), running.get(j));
            }
        }
        List<AgentJvm.Result> results = new ArrayList<>();
        for (CompletableFuture<AgentJvm.Result> r : running) {
            results.add(r.get(1, TimeUnit.MINUTES));
        }
        return results;
    }

    private void revoke() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(revokeUrl)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private static void awaitFile(Path file, CompletableFuture<AgentJvm.Result> jvm) {
        // As long as a JVM may run (AgentJvm's limit): past it, the JVM has ended and says why.
        Eventually.await(file.getFileName().toString(), Duration.ofMinutes(1), () -> {
            if (jvm.isDone() && !Files.exists(file)) {
                // It ended before the round did: its result says why.
                throw new AssertionError("a JVM ended before " + file.getFileName() + ": " + jvm.join());
            }
            return Files.exists(file);
        });
    }
}
