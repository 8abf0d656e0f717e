package io.apiwarden.it.apps;

import io.netty.handler.codec.http.HttpMethod;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

/**
 * An app that calls through Reactor Netty's {@code HttpClient} the way Spring's {@code WebClient}
 * does (a request, a body, the response read from the connection), on one event-loop thread of its
 * own. Each argument is {@code mode:url}:
 * <ul>
 *   <li>{@code get}, {@code post-once} (a body publisher handed over once): prints {@code STATUS code body};
 *   <li>{@code loop:url:other}: the API call is rate limited; once its first response is in, a
 *       call to {@code other} runs on the same event loop while the API call waits;
 *   <li>{@code fire:url}: a GET the app subscribes to and does not wait for; its {@code FIRED} line comes
 *       when the app ends;
 *   <li>{@code await:file}: waits until the test has created the file;
 *   <li>{@code many:N:url}: N GETs subscribed at once; prints {@code MANY} and how they ended.
 * </ul>
 */
public final class ReactorNettyApp {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final String BODY = "{\"name\":\"widget\"}";

    private ReactorNettyApp() {}

    public static void main(String[] args) throws Exception {
        LoopResources loop = LoopResources.create("app-loop", 1, true);
        ConnectionProvider pool = ConnectionProvider.create("app-pool", 8);
        CountDownLatch firstResponse = new CountDownLatch(1);
        HttpClient client =
                HttpClient.create(pool).runOn(loop).doOnResponse((response, connection) -> firstResponse.countDown());
        java.util.List<java.util.concurrent.CompletableFuture<String>> fired = new java.util.ArrayList<>();
        try {
            for (String arg : args) {
                int colon = arg.indexOf(':');
                String mode = arg.substring(0, colon);
                String url = arg.substring(colon + 1);
                switch (mode) {
                    case "get":
                        System.out.println(call(client, url).block(LIMIT));
                        break;
                    case "post-once":
                        System.out.println(read(client.request(HttpMethod.POST)
                                        .uri(url)
                                        .send(ByteBufFlux.fromString(Mono.just(BODY))))
                                .block(LIMIT));
                        break;
                    case "loop":
                        whileWaiting(client, url, firstResponse);
                        break;
                    case "fire":
                        fired.add(call(client, url).toFuture());
                        break;
                    case "await":
                        JdkClientApp.awaitFile(java.nio.file.Paths.get(url));
                        break;
                    case "many":
                        many(
                                client,
                                Integer.parseInt(url.substring(0, url.indexOf(':'))),
                                url.substring(url.indexOf(':') + 1));
                        break;
                    default:
                        throw new IllegalArgumentException(mode);
                }
            }
            for (java.util.concurrent.CompletableFuture<String> f : fired) {
                System.out.println("FIRED " + withoutThread(f.get(2, java.util.concurrent.TimeUnit.MINUTES)));
            }
        } finally {
            pool.disposeLater().block(LIMIT);
            loop.disposeLater().block(LIMIT);
        }
    }

    private static void many(HttpClient client, int n, String url) throws Exception {
        java.util.List<java.util.concurrent.CompletableFuture<String>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(call(client, url).toFuture());
        }
        java.util.TreeMap<String, Integer> counts = new java.util.TreeMap<>();
        for (java.util.concurrent.CompletableFuture<String> c : calls) {
            counts.merge(withoutThread(c.get(2, java.util.concurrent.TimeUnit.MINUTES)), 1, Integer::sum);
        }
        System.out.println("MANY " + counts);
    }

    private static String withoutThread(String result) {
        int on = result.lastIndexOf(" on ");
        return on < 0 ? result : result.substring(0, on);
    }

    private static Mono<String> call(HttpClient client, String url) {
        return read(client.request(HttpMethod.GET).uri(url));
    }

    /** Reads status and body as Spring's connector does: from the connection, in {@code responseConnection}. */
    private static Mono<String> read(HttpClient.ResponseReceiver<?> request) {
        return request.responseConnection((response, connection) -> connection
                        .inbound()
                        .receive()
                        .aggregate()
                        .asString()
                        .defaultIfEmpty("")
                        .map(body -> "STATUS " + response.status().code() + " " + body + " on "
                                + Thread.currentThread().getName()))
                .next();
    }

    private static void whileWaiting(HttpClient client, String urls, CountDownLatch firstResponse) throws Exception {
        String url = urls.substring(0, urls.lastIndexOf(":http"));
        String other = urls.substring(urls.lastIndexOf(":http") + 1);
        CompletableFuture<String> api = call(client, url).toFuture();
        if (!firstResponse.await(LIMIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("no response");
        }
        long start = System.nanoTime();
        String answer = call(client, other).block(LIMIT);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("OTHER " + answer + " while-waiting=" + !api.isDone() + " millis=" + millis);
        System.out.println("API " + api.get(LIMIT.toSeconds(), TimeUnit.SECONDS));
    }
}
