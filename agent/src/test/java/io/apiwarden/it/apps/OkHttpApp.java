package io.apiwarden.it.apps;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A plain OkHttp app with no auth code, run in its own JVM (with OkHttp 3, 4 or 5 on its class
 * path) by the agent's integration tests. Each argument is one step:
 * <ul>
 *   <li>{@code execute:URL}, {@code enqueue:URL}: one GET, prints {@code STATUS code body};
 *   <li>{@code copies:URL}: GETs through {@code newBuilder()} copies, prints their interceptor counts;
 *   <li>{@code storm:N:URL:OTHER}: N managed GETs enqueued at once, then one unmanaged GET on the same
 *       client and host; prints whether the unmanaged one finished before any managed one;
 *   <li>{@code cancel:URL}: enqueues a GET, cancels it after it was answered, prints what the callback got;
 *   <li>{@code execute-cancel:URL}: the same with {@code execute()} on another thread;
 *   <li>{@code post-oneshot:URL}: a POST whose body can be written once;
 *   <li>{@code throwing:URL}: a POST through a network interceptor of the app's that throws after it proceeded;
 *   <li>{@code execute-limit:MILLIS:URL}, {@code enqueue-limit:MILLIS:URL}: one GET on a client with that
 *       {@code callTimeout}, prints {@code LIMITED status-or-exception elapsed-millis};
 *   <li>{@code fire:URL}: enqueues a GET and goes on; its {@code FIRED} line comes when the app ends;
 *   <li>{@code await:FILE}: waits until the test has created the file;
 *   <li>{@code both:N:URL}: N GETs with {@code execute()} on threads of their own and N enqueued, all at
 *       once; prints {@code BOTH} and how they ended.
 * </ul>
 */
public final class OkHttpApp {
    private static final OkHttpClient CLIENT = new OkHttpClient();

    private OkHttpApp() {}

    public static void main(String[] args) throws Exception {
        List<CompletableFuture<String>> fired = new ArrayList<>();
        for (String step : args) {
            String[] parts = step.split(":", 2);
            String rest = parts[1];
            switch (parts[0]) {
                case "execute":
                    try (Response r = CLIENT.newCall(get(rest)).execute()) {
                        System.out.println("STATUS " + r.code() + " " + r.body().string());
                        System.out.println("SHOWN " + r.request().header("Authorization") + " " + r.request());
                    }
                    break;
                case "enqueue":
                    System.out.println(enqueue(CLIENT, rest).get(60, TimeUnit.SECONDS));
                    break;
                case "copies":
                    copies(rest);
                    break;
                case "storm":
                    storm(rest);
                    break;
                case "cancel":
                    cancel(rest);
                    break;
                case "execute-cancel":
                    executeCancel(rest);
                    break;
                case "post-oneshot":
                    postOneShot(rest);
                    break;
                case "throwing":
                    throwingBelow(rest);
                    break;
                case "execute-limit":
                case "enqueue-limit":
                    limited(parts[0].startsWith("execute"), rest);
                    break;
                case "fire":
                    fired.add(enqueue(CLIENT, rest));
                    break;
                case "await":
                    JdkClientApp.awaitFile(java.nio.file.Paths.get(rest));
                    break;
                case "both":
                    both(Integer.parseInt(rest.substring(0, rest.indexOf(':'))), rest.substring(rest.indexOf(':') + 1));
                    break;
                default:
                    throw new IllegalArgumentException("unknown step " + step);
            }
        }
        for (CompletableFuture<String> f : fired) {
            System.out.println("FIRED " + f.get(2, TimeUnit.MINUTES));
        }
        CLIENT.dispatcher().executorService().shutdown();
    }

    static Request get(String url) {
        return new Request.Builder().url(url).build();
    }

    static CompletableFuture<String> enqueue(OkHttpClient client, String url) {
        CompletableFuture<String> result = new CompletableFuture<>();
        AtomicInteger callbacks = new AtomicInteger();
        client.newCall(get(url)).enqueue(new Callback() {
            @Override
            public void onFailure(Call call, IOException e) {
                result.complete("FAILURE " + e.getMessage() + " callbacks=" + callbacks.incrementAndGet());
            }

            @Override
            public void onResponse(Call call, Response response) throws IOException {
                try (Response r = response) {
                    result.complete("STATUS " + r.code() + " " + r.body().string());
                }
            }
        });
        return result;
    }

    private static void copies(String url) throws IOException {
        OkHttpClient copy = CLIENT.newBuilder().build();
        OkHttpClient withOwn = copy.newBuilder()
                .addInterceptor(chain -> chain.proceed(chain.request()))
                .build();
        System.out.println("INTERCEPTORS " + CLIENT.interceptors().size() + " "
                + copy.interceptors().size() + " " + withOwn.interceptors().size());
        try (Response r = withOwn.newCall(get(url)).execute()) {
            System.out.println("STATUS " + r.code() + " " + r.body().string());
        }
    }

    private static void both(int n, String url) throws Exception {
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CompletableFuture<String> executed = new CompletableFuture<>();
            Thread t = new Thread(
                    () -> {
                        try (Response r = CLIENT.newCall(get(url)).execute()) {
                            executed.complete(
                                    "STATUS " + r.code() + " " + r.body().string());
                        } catch (IOException | RuntimeException e) {
                            executed.complete("FAILURE " + e);
                        }
                    },
                    "app-execute-" + i);
            t.start();
            calls.add(executed);
            calls.add(enqueue(CLIENT, url));
        }
        TreeMap<String, Integer> counts = new TreeMap<>();
        for (CompletableFuture<String> call : calls) {
            counts.merge(call.get(2, TimeUnit.MINUTES), 1, Integer::sum);
        }
        System.out.println("BOTH " + counts);
    }

    private static void storm(String spec) throws Exception {
        String[] p = spec.split(":", 2);
        int n = Integer.parseInt(p[0]);
        String urls = p[1];
        int split = urls.indexOf(":http");
        String managed = urls.substring(0, split);
        String other = urls.substring(split + 1);
        long[] firstManagedDone = {Long.MAX_VALUE};
        List<CompletableFuture<String>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            calls.add(enqueue(CLIENT, managed).whenComplete((s, e) -> {
                synchronized (firstManagedDone) {
                    firstManagedDone[0] = Math.min(firstManagedDone[0], System.nanoTime());
                }
            }));
        }
        String otherResult = enqueue(CLIENT, other).get(60, TimeUnit.SECONDS);
        long otherDone = System.nanoTime();
        TreeMap<String, Integer> counts = new TreeMap<>();
        for (CompletableFuture<String> call : calls) {
            counts.merge(call.get(60, TimeUnit.SECONDS), 1, Integer::sum);
        }
        synchronized (firstManagedDone) {
            System.out.println("OTHER " + otherResult + " first=" + (otherDone < firstManagedDone[0]));
        }
        System.out.println("STORM " + counts);
    }

    private static void cancel(String url) throws Exception {
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        OkHttpClient listening = countingAnswers(answered);
        Call call = listening.newCall(get(url));
        CompletableFuture<String> result = new CompletableFuture<>();
        AtomicInteger callbacks = new AtomicInteger();
        long start = System.nanoTime();
        call.enqueue(new Callback() {
            @Override
            public void onFailure(Call c, IOException e) {
                callbacks.incrementAndGet();
                result.complete("FAILURE " + e.getMessage() + " same-call=" + (c == call));
            }

            @Override
            public void onResponse(Call c, Response response) {
                callbacks.incrementAndGet();
                response.close();
                result.complete("STATUS " + response.code());
            }
        });
        // Cancel once the first (rate-limited) answer is in, while the retry waits.
        answered.await(60, TimeUnit.SECONDS);
        call.cancel();
        String outcome = result.get(60, TimeUnit.SECONDS);
        listening.dispatcher().executorService().shutdown();
        listening.dispatcher().executorService().awaitTermination(60, TimeUnit.SECONDS);
        System.out.println("CANCEL " + outcome + " callbacks=" + callbacks.get() + " fast="
                + (TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 20));
    }

    private static void executeCancel(String url) throws Exception {
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        OkHttpClient listening = countingAnswers(answered);
        Call call = listening.newCall(get(url));
        long start = System.nanoTime();
        CompletableFuture<String> outcome = CompletableFuture.supplyAsync(() -> {
            try (Response r = call.execute()) {
                return "STATUS " + r.code();
            } catch (IOException e) {
                return "FAILURE " + e.getMessage();
            }
        });
        answered.await(60, TimeUnit.SECONDS);
        call.cancel();
        System.out.println("EXECUTE-CANCEL " + outcome.get(60, TimeUnit.SECONDS) + " fast="
                + (TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) < 20));
    }

    private static void postOneShot(String url) throws IOException {
        java.util.concurrent.atomic.AtomicBoolean written = new java.util.concurrent.atomic.AtomicBoolean();
        okhttp3.RequestBody oneShot = new okhttp3.RequestBody() {
            @Override
            public okhttp3.MediaType contentType() {
                return null;
            }

            @Override
            public void writeTo(okio.BufferedSink sink) throws IOException {
                if (!written.compareAndSet(false, true)) {
                    throw new IOException("this body was already written");
                }
                sink.writeUtf8("streamed ");
                sink.flush();
                sink.writeUtf8("once");
            }

            @Override
            public boolean isOneShot() {
                return true;
            }
        };
        try (Response r = CLIENT.newCall(
                        new Request.Builder().url(url).post(oneShot).build())
                .execute()) {
            System.out.println("STATUS " + r.code());
        }
    }

    /** A copy of the client that counts down {@code answered} when the first response's headers are in. */
    private static OkHttpClient countingAnswers(java.util.concurrent.CountDownLatch answered) {
        return CLIENT.newBuilder()
                .eventListener(new okhttp3.EventListener() {
                    @Override
                    public void responseHeadersEnd(Call c, Response response) {
                        answered.countDown();
                    }
                })
                .build();
    }

    private static void limited(boolean execute, String spec) throws Exception {
        String[] p = spec.split(":", 2);
        OkHttpClient client = CLIENT.newBuilder()
                .callTimeout(Long.parseLong(p[0]), TimeUnit.MILLISECONDS)
                .build();
        long start = System.nanoTime();
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Call call = client.newCall(get(p[1]));
        if (execute) {
            try (Response r = call.execute()) {
                outcome.complete(Integer.toString(r.code()));
            } catch (IOException e) {
                outcome.complete(e.getClass().getSimpleName());
            }
        } else {
            call.enqueue(new Callback() {
                @Override
                public void onFailure(Call c, IOException e) {
                    outcome.complete(e.getClass().getSimpleName());
                }

                @Override
                public void onResponse(Call c, Response response) {
                    response.close();
                    outcome.complete(Integer.toString(response.code()));
                }
            });
        }
        String result = outcome.get(60, TimeUnit.SECONDS);
        System.out.println("LIMITED " + result + " " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private static void throwingBelow(String url) {
        OkHttpClient throwing = CLIENT.newBuilder()
                .addNetworkInterceptor(chain -> {
                    chain.proceed(chain.request()).close();
                    throw new IllegalStateException("the app's own interceptor failed");
                })
                .build();
        Request post = new Request.Builder()
                .url(url)
                .post(okhttp3.RequestBody.create("order", null))
                .build();
        try (Response r = throwing.newCall(post).execute()) {
            System.out.println("STATUS " + r.code());
        } catch (IOException | RuntimeException e) {
            System.out.println("THROWN " + e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
