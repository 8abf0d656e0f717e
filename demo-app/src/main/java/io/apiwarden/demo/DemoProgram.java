package io.apiwarden.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A plain app that reads the current user of the API with the JDK {@link HttpClient} and with
 * OkHttp. It has no authentication code at all: no token, no refresh, no retry. Run alone, its
 * calls fail with 401; run under the API Warden agent, the agent makes them succeed.
 *
 * <p>The calls are arranged to meet both of the spec's errors: a burst of concurrent calls exceeds
 * the global rate limit, then a pause outlasts the access token.
 */
public final class DemoProgram {
    /** The API base; the same property the agent reads, so one setting serves both. */
    static final String BASE_URL_PROPERTY = "apiwarden.base-url";
    /** Milliseconds to pause between the two phases; the launcher sets it just past the token lifetime. */
    static final String EXPIRY_WAIT_PROPERTY = "apiwarden.demo.expiry-wait-ms";
    /** Half a second past the simulated API's default token lifetime of 5 s. */
    static final long DEFAULT_EXPIRY_WAIT_MS = 5_500;
    /** Two sequential calls, then more concurrent ones than a small global limit allows. */
    static final int BURST_SENDS = 2;

    static final int BURST_ASYNC_CALLS = 8;
    /** After the pause, one call with send meets the expired token first; the concurrent ones follow. */
    static final int AFTER_PAUSE_ASYNC_CALLS = 3;
    /** Then OkHttp: one execute and two enqueue. */
    static final int OKHTTP_ENQUEUE_CALLS = 2;

    static final int TOTAL_CALLS =
            BURST_SENDS + BURST_ASYNC_CALLS + 1 + AFTER_PAUSE_ASYNC_CALLS + 1 + OKHTTP_ENQUEUE_CALLS;
    /** Generous, as the agent may wait through several back-off steps within one call; still ends a hung call. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final URI userUrl;
    private final Duration expiryWait;
    private final PrintStream out;
    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final AtomicInteger callNumbers = new AtomicInteger();
    private final AtomicInteger succeeded = new AtomicInteger();
    /** Calls that a proxy in front of the API failed (502/504 with Via): the agent rightly leaves those to the app. */
    private final AtomicInteger proxyFailed = new AtomicInteger();
    /** Final status classes the app saw ("2xx", "5xx", ...), for the summary. */
    private final java.util.Map<String, AtomicInteger> statusClasses =
            new java.util.concurrent.ConcurrentSkipListMap<>();

    private final okhttp3.OkHttpClient okHttp = new okhttp3.OkHttpClient();

    DemoProgram(URI baseUrl, Duration expiryWait, PrintStream out) {
        String base = baseUrl.toString();
        this.userUrl = URI.create(base.endsWith("/") ? base + "user" : base + "/user");
        this.expiryWait = expiryWait;
        this.out = out;
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the program; returns its exit code: 0 when every call ended in 200, 1 when not, 2 for bad arguments. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        String base = args.length > 0 ? args[0] : System.getProperty(BASE_URL_PROPERTY);
        if (base == null || base.trim().isEmpty()) {
            err.println("demo-program: no API base URL: pass it as the first argument or as -D" + BASE_URL_PROPERTY
                    + "=http://host:port/api/v1");
            return 2;
        }
        long waitMs;
        try {
            waitMs = Long.parseLong(System.getProperty(EXPIRY_WAIT_PROPERTY, Long.toString(DEFAULT_EXPIRY_WAIT_MS)));
        } catch (NumberFormatException e) {
            err.println("demo-program: -D" + EXPIRY_WAIT_PROPERTY + " must be whole milliseconds, such as 3500");
            return 2;
        }
        try {
            return new DemoProgram(URI.create(base.trim()), Duration.ofMillis(waitMs), out).callAll();
        } catch (IllegalArgumentException e) {
            err.println("demo-program: '" + base + "' is not a usable URL (" + e.getMessage() + ")");
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("demo-program: interrupted");
            return 1;
        }
    }

    int callAll() throws InterruptedException {
        out.println("phase 1: " + BURST_SENDS + " calls with send, then " + BURST_ASYNC_CALLS
                + " at once with sendAsync (more than the global rate limit allows)");
        for (int i = 0; i < BURST_SENDS; i++) {
            callWithSend();
        }
        callWithSendAsync(BURST_ASYNC_CALLS);
        out.println("phase 2: pausing " + expiryWait.toMillis() + " ms so that the access token expires");
        Thread.sleep(expiryWait.toMillis());
        callWithSend();
        callWithSendAsync(AFTER_PAUSE_ASYNC_CALLS);
        out.println("phase 3: the same API through OkHttp: one execute, then " + OKHTTP_ENQUEUE_CALLS + " enqueue");
        OkHttpCalls.run(
                okHttp,
                userUrl.toString(),
                OKHTTP_ENQUEUE_CALLS,
                callNumbers,
                (number, via, status, requestId) -> record(number, via, status, requestId),
                this::reportFailure);
        okHttp.dispatcher().executorService().shutdown();

        int calls = callNumbers.get();
        int failed = calls - succeeded.get() - proxyFailed.get();
        out.println("summary: " + calls + " calls, " + succeeded.get() + " ended in 200, " + proxyFailed.get()
                + " failed at the proxy (not the agent's to rescue), " + failed + " other failures");
        out.println("status classes: " + statusClasses);
        if (failed > 0) {
            out.println("exit code 1: this app has no auth or retry code; run it with the API Warden agent");
            return 1;
        }
        return 0;
    }

    private void callWithSend() throws InterruptedException {
        int number = callNumbers.incrementAndGet();
        try {
            report(number, "send", client.send(userRequest(), HttpResponse.BodyHandlers.ofString()));
        } catch (IOException e) {
            reportFailure(number, "send", e);
        }
    }

    private void callWithSendAsync(int count) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int number = callNumbers.incrementAndGet();
            calls.add(client.sendAsync(userRequest(), HttpResponse.BodyHandlers.ofString())
                    .handle((response, failure) -> {
                        if (failure == null) {
                            report(number, "sendAsync", response);
                        } else {
                            reportFailure(number, "sendAsync", failure);
                        }
                        return null;
                    }));
        }
        CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).join();
    }

    private HttpRequest userRequest() {
        return HttpRequest.newBuilder(userUrl)
                .timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json")
                .GET()
                .build();
    }

    /** One line per call; the body is not printed, it is the API's business and not needed to follow the demo. */
    private void report(int number, String via, HttpResponse<String> response) {
        boolean viaProxy = response.statusCode() >= 500
                && response.headers().firstValue("Via").isPresent();
        record(
                number,
                via,
                response.statusCode() + (viaProxy ? " via proxy" : ""),
                response.headers().firstValue("X-Request-Id").orElse("(none)"));
    }

    private void record(int number, String via, String status, String requestId) {
        statusClasses
                .computeIfAbsent(status.charAt(0) + "xx", k -> new AtomicInteger())
                .incrementAndGet();
        if (status.equals("200")) {
            succeeded.incrementAndGet();
        } else if (status.endsWith("via proxy")) {
            proxyFailed.incrementAndGet();
        }
        out.println("call " + number + " via " + via + " -> status " + status + ", X-Request-Id " + requestId);
    }

    void reportFailure(int number, String via, Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        out.println("call " + number + " via " + via + " -> failed: " + cause);
    }
}
