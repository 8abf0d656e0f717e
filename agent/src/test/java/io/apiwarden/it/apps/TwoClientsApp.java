package io.apiwarden.it.apps;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An app with no auth code that calls through both JDK {@code HttpClient} and OkHttp, run in its own JVM by
 * {@code SeveralApisAgentIT}. Each argument is one step: {@code jdk:URL} and {@code okhttp:URL} (one GET, prints
 * {@code STATUS code body}); {@code fire:URL} (a GET through the JDK client, not waited for: its status is printed as
 * {@code FIRED code} at the end).
 */
public final class TwoClientsApp {
    private TwoClientsApp() {}

    public static void main(String[] args) throws Exception {
        HttpClient jdk = HttpClient.newHttpClient();
        OkHttpClient okHttp = new OkHttpClient();
        List<CompletableFuture<HttpResponse<String>>> fired = new ArrayList<>();
        for (String step : args) {
            int colon = step.indexOf(':');
            String kind = step.substring(0, colon);
            URI url = URI.create(step.substring(colon + 1));
            switch (kind) {
                case "jdk":
                    HttpResponse<String> r =
                            jdk.send(HttpRequest.newBuilder(url).build(), BodyHandlers.ofString());
                    System.out.println("STATUS " + r.statusCode() + " " + r.body());
                    break;
                case "okhttp":
                    try (Response response = okHttp.newCall(
                                    new Request.Builder().url(url.toString()).build())
                            .execute()) {
                        System.out.println("STATUS " + response.code() + " "
                                + response.body().string());
                    }
                    break;
                case "fire":
                    fired.add(jdk.sendAsync(HttpRequest.newBuilder(url).build(), BodyHandlers.ofString()));
                    break;
                default:
                    throw new IllegalArgumentException("unknown step " + step);
            }
        }
        for (CompletableFuture<HttpResponse<String>> f : fired) {
            System.out.println("FIRED " + f.get(2, TimeUnit.MINUTES).statusCode());
        }
        okHttp.dispatcher().executorService().shutdown();
        okHttp.connectionPool().evictAll();
    }
}
