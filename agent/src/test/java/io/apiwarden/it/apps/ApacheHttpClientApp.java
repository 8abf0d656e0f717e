package io.apiwarden.it.apps;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.io.CloseMode;

/**
 * A plain Apache HttpClient 5 app with no auth code, run in its own JVM by the agent's integration
 * tests. Each argument is one step:
 * <ul>
 *   <li>{@code get:URL}: one classic GET, prints {@code STATUS code body};
 *   <li>{@code post-stream:URL}: a classic POST whose body is a stream (not repeatable), prints {@code STATUS code};
 *   <li>{@code async-get:URL}: one GET through the async client ({@code HttpAsyncClients.createDefault()}),
 *       prints {@code ASYNC STATUS code body};
 *   <li>{@code async-post-oneshot:URL}: an async POST whose body can be produced once only, prints
 *       {@code ASYNC STATUS code};
 *   <li>{@code async-get-cancel:URL}: an async GET whose future is cancelled a second later; prints
 *       whether the future and its callback were cancelled, and whether that was soon after the cancel;
 *   <li>{@code fire:URL}: an async GET the app does not wait for; its {@code FIRED} line comes when the app ends;
 *   <li>{@code await:FILE}: waits until the test has created the file;
 *   <li>{@code both:N:URL}: N classic GETs on threads of their own and N async GETs, all at once; prints
 *       {@code BOTH} and how they ended.
 * </ul>
 */
public final class ApacheHttpClientApp {
    private ApacheHttpClientApp() {}

    /** Built at the first async step, so that a run of classic steps never builds one. */
    private static CloseableHttpAsyncClient async;

    public static void main(String[] args) throws Exception {
        System.out.println("LOADER " + HttpClients.class.getClassLoader().getName());
        try (CloseableHttpClient client = HttpClients.createDefault()) {
            steps(client, args);
        } finally {
            if (async != null) {
                async.close(CloseMode.GRACEFUL);
            }
        }
    }

    private static CloseableHttpAsyncClient async() {
        if (async == null) {
            async = HttpAsyncClients.createDefault();
            async.start();
        }
        return async;
    }

    private static void steps(CloseableHttpClient client, String[] args) throws Exception {
        List<Future<SimpleHttpResponse>> fired = new ArrayList<>();
        for (String step : args) {
            String[] parts = step.split(":", 2);
            String url = parts[1];
            switch (parts[0]) {
                case "get":
                    String got = client.execute(new HttpGet(url), r -> "STATUS " + r.getCode() + " " + text(r));
                    System.out.println(got);
                    break;
                case "post-stream":
                    HttpPost post = new HttpPost(url);
                    post.setEntity(new InputStreamEntity(
                            new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)),
                            2,
                            ContentType.APPLICATION_JSON));
                    String posted = client.execute(post, r -> "STATUS " + r.getCode());
                    System.out.println(posted);
                    break;
                case "async-get":
                    SimpleHttpResponse response = async().execute(
                                    SimpleRequestBuilder.get(url).build(), null)
                            .get(30, TimeUnit.SECONDS);
                    System.out.println("ASYNC STATUS " + response.getCode() + " " + response.getBodyText());
                    break;
                case "async-post-oneshot":
                    SimpleHttpResponse created = async().execute(
                                    new BasicRequestProducer(
                                            Method.POST,
                                            URI.create(url),
                                            new io.apiwarden.adapters.faces.OneShotProducer("{\"n\":1}")),
                                    SimpleResponseConsumer.create(),
                                    null)
                            .get(30, TimeUnit.SECONDS);
                    System.out.println("ASYNC STATUS " + created.getCode());
                    break;
                case "async-get-cancel":
                    asyncGetCancel(url);
                    break;
                case "fire":
                    fired.add(async().execute(SimpleRequestBuilder.get(url).build(), null));
                    break;
                case "await":
                    JdkClientApp.awaitFile(java.nio.file.Paths.get(url));
                    break;
                case "both":
                    both(
                            client,
                            Integer.parseInt(url.substring(0, url.indexOf(':'))),
                            url.substring(url.indexOf(':') + 1));
                    break;
                default:
                    throw new IllegalArgumentException("unknown step " + step);
            }
        }
        for (Future<SimpleHttpResponse> f : fired) {
            SimpleHttpResponse r = f.get(2, TimeUnit.MINUTES);
            System.out.println("FIRED ASYNC STATUS " + r.getCode() + " " + r.getBodyText());
        }
    }

    private static void both(CloseableHttpClient client, int n, String url) throws Exception {
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CompletableFuture<String> classic = new CompletableFuture<>();
            Thread t = new Thread(
                    () -> {
                        try {
                            classic.complete(
                                    client.execute(new HttpGet(url), r -> "STATUS " + r.getCode() + " " + text(r)));
                        } catch (IOException | RuntimeException e) {
                            classic.complete("FAILURE " + e);
                        }
                    },
                    "app-classic-" + i);
            t.start();
            calls.add(classic);
            CompletableFuture<String> asynchronous = new CompletableFuture<>();
            async().execute(SimpleRequestBuilder.get(url).build(), new FutureCallback<>() {
                @Override
                public void completed(SimpleHttpResponse r) {
                    asynchronous.complete("ASYNC STATUS " + r.getCode() + " " + r.getBodyText());
                }

                @Override
                public void failed(Exception e) {
                    asynchronous.complete("FAILURE " + e);
                }

                @Override
                public void cancelled() {
                    asynchronous.complete("CANCELLED");
                }
            });
            calls.add(asynchronous);
        }
        java.util.TreeMap<String, Integer> counts = new java.util.TreeMap<>();
        for (CompletableFuture<String> call : calls) {
            counts.merge(call.get(2, TimeUnit.MINUTES), 1, Integer::sum);
        }
        System.out.println("BOTH " + counts);
    }

    private static void asyncGetCancel(String url) throws Exception {
        CompletableFuture<String> callback = new CompletableFuture<>();
        Future<SimpleHttpResponse> call = async().execute(
                        SimpleRequestBuilder.get(url).build(), new FutureCallback<>() {
                            @Override
                            public void completed(SimpleHttpResponse result) {
                                callback.complete("completed " + result.getCode());
                            }

                            @Override
                            public void failed(Exception ex) {
                                callback.complete("failed " + ex.getClass().getSimpleName());
                            }

                            @Override
                            public void cancelled() {
                                callback.complete("cancelled");
                            }
                        });
        try {
            call.get(1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException stillRunning) {
            // Expected: the call waits out a 30 s back-off.
        }
        long cancelledAt = System.nanoTime();
        call.cancel(true);
        String said = callback.get(30, TimeUnit.SECONDS);
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelledAt);
        System.out.println("ASYNC-GET-CANCEL cancelled=" + call.isCancelled() + " callback=" + said + " fast="
                + (tookMillis < 5_000));
    }

    private static String text(ClassicHttpResponse response) throws IOException {
        try {
            return EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
        } catch (org.apache.hc.core5.http.ParseException e) {
            throw new IOException(e);
        }
    }
}
