package io.apiwarden.it.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.io.entity.EntityUtils;

/**
 * An app with no auth code that calls through JDK {@code HttpClient}, OkHttp, Apache HttpClient 5 (classic) and
 * Reactor Netty, run in its own JVM by {@code SeveralApisAgentIT}. Each argument is one step: {@code jdk:URL},
 * {@code okhttp:URL}, {@code apache:URL} and {@code netty:URL} (one GET, prints {@code STATUS code body});
 * {@code fire:URL} (a GET through the JDK client, not waited for); {@code wait:} (waits for the fired calls, printing
 * {@code FIRED code} for each; what is still fired at the end is waited for then).
 */
public final class SeveralClientsApp {
    private static final Duration LIMIT = Duration.ofMinutes(2);

    private SeveralClientsApp() {}

    public static void main(String[] args) throws Exception {
        HttpClient jdk = HttpClient.newHttpClient();
        OkHttpClient okHttp = new OkHttpClient();
        List<CompletableFuture<HttpResponse<String>>> fired = new ArrayList<>();
        try (CloseableHttpClient apache = HttpClients.createDefault()) {
            for (String step : args) {
                int colon = step.indexOf(':');
                String kind = step.substring(0, colon);
                String url = step.substring(colon + 1);
                switch (kind) {
                    case "jdk":
                        HttpResponse<String> r =
                                jdk.send(HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString());
                        System.out.println("STATUS " + r.statusCode() + " " + r.body());
                        break;
                    case "okhttp":
                        try (Response response = okHttp.newCall(
                                        new Request.Builder().url(url).build())
                                .execute()) {
                            System.out.println("STATUS " + response.code() + " "
                                    + response.body().string());
                        }
                        break;
                    case "apache":
                        String got = apache.execute(
                                new HttpGet(url),
                                response -> "STATUS " + response.getCode() + " "
                                        + EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8));
                        System.out.println(got);
                        break;
                    case "netty":
                        System.out.println(ReactorNettyCall.get(url, LIMIT));
                        break;
                    case "fire":
                        fired.add(jdk.sendAsync(
                                HttpRequest.newBuilder(URI.create(url)).build(), BodyHandlers.ofString()));
                        break;
                    case "wait":
                        awaitFired(fired);
                        break;
                    default:
                        throw new IllegalArgumentException("unknown step " + step);
                }
            }
            awaitFired(fired);
        }
        okHttp.dispatcher().executorService().shutdown();
        okHttp.connectionPool().evictAll();
    }

    private static void awaitFired(List<CompletableFuture<HttpResponse<String>>> fired) throws Exception {
        for (CompletableFuture<HttpResponse<String>> f : fired) {
            System.out.println(
                    "FIRED " + f.get(LIMIT.toMinutes(), TimeUnit.MINUTES).statusCode());
        }
        fired.clear();
    }

    /** Reactor Netty's calls, in a class of their own: loaded only by an app run with a {@code netty:} step. */
    private static final class ReactorNettyCall {
        static String get(String url, Duration limit) {
            return reactor.netty.http.client.HttpClient.create()
                    .get()
                    .uri(url)
                    .responseSingle((response, body) -> body.asString()
                            .defaultIfEmpty("")
                            .map(text -> "STATUS " + response.status().code() + " " + text))
                    .block(limit);
        }
    }
}
