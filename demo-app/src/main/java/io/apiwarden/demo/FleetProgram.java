package io.apiwarden.demo;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One replica of the fleet scene: a plain app with no auth code that makes a few concurrent
 * calls, pauses past the token's life, and does it again, {@link #ROUNDS} times. Prints one line:
 * {@code replica calls=N ok=M}, and exits 0 when every call ended in 200.
 */
public final class FleetProgram {
    /** Three rounds: the first token, then two expiries, each of which the replicas meet together. */
    static final int ROUNDS = 3;

    static final int CALLS_PER_ROUND = 5;
    static final String ROUND_WAIT_PROPERTY = "apiwarden.demo.round-wait-ms";

    private FleetProgram() {}

    public static void main(String[] args) throws Exception {
        URI user = URI.create(System.getProperty(DemoProgram.BASE_URL_PROPERTY) + "/user");
        long roundWait = Long.parseLong(System.getProperty(ROUND_WAIT_PROPERTY, "3500"));
        HttpClient client = HttpClient.newHttpClient();
        int ok = 0;
        int calls = 0;
        for (int round = 0; round < ROUNDS; round++) {
            if (round > 0) {
                Thread.sleep(roundWait);
            }
            List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < CALLS_PER_ROUND; i++) {
                sent.add(client.sendAsync(
                        HttpRequest.newBuilder(user)
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> call : sent) {
                calls++;
                if (call.join().statusCode() == 200) {
                    ok++;
                }
            }
        }
        System.out.println("replica calls=" + calls + " ok=" + ok);
        System.exit(ok == calls ? 0 : 1);
    }
}
