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
 * the global rate limit, then a pause outlasts the access token. When a second API is configured
 * ({@code apiwarden.api.payments.base-url}), calls to it go out with the burst: that API has its own
 * token service and rate limit, and keeps answering 200 while the first one holds the burst.
 */
public final class DemoProgram {
    /** The API base; the same property the agent reads, so one setting serves both. */
    static final String BASE_URL_PROPERTY = "apiwarden.base-url";
    /** The second API's base, as the agent reads it too; none: only the first API is called. */
    static final String PAYMENTS_BASE_URL_PROPERTY = "apiwarden.api.payments.base-url";
    /** Calls to the second API, sent with the burst that the first API's rate limit holds. */
    static final int PAYMENTS_CALLS = 3;
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
    /** The second API's user, or null when there is none. */
    private final URI paymentsUserUrl;

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
        this(baseUrl, null, expiryWait, out);
    }

    /** @param paymentsBaseUrl the second API's base, or null to call the first only */
    DemoProgram(URI baseUrl, URI paymentsBaseUrl, Duration expiryWait, PrintStream out) {
        this.userUrl = userOf(baseUrl);
        this.paymentsUserUrl = paymentsBaseUrl == null ? null : userOf(paymentsBaseUrl);
        this.expiryWait = expiryWait;
        this.out = out;
    }

    private static URI userOf(URI baseUrl) {
        String base = baseUrl.toString();
        return URI.create(base.endsWith("/") ? base + "user" : base + "/user");
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
            String payments = System.getProperty(PAYMENTS_BASE_URL_PROPERTY);
            return new DemoProgram(
                            URI.create(base.trim()),
                            payments == null || payments.trim().isEmpty() ? null : URI.create(payments.trim()),
                            Duration.ofMillis(waitMs),
                            out)
                    .callAll();
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
                + " at once with sendAsync (more than the global rate limit allows)"
                + (paymentsUserUrl == null ? "" : ", and " + PAYMENTS_CALLS + " to the payments API with them"));
        for (int i = 0; i < BURST_SENDS; i++) {
            callWithSend();
        }
        if (paymentsUserUrl == null) {
            callWithSendAsync(BURST_ASYNC_CALLS);
        } else {
            burstBesidePayments();
        }
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
        CompletableFuture.allOf(sendAsync(userUrl, "sendAsync", count)).join();
    }

    /**
     * The burst to the first API and, at the same time, calls to the second: the second's answers come while the
     * first API's rate limit holds the burst, since each API's window is its own.
     */
    private void burstBesidePayments() {
        long start = System.nanoTime();
        CompletableFuture<Void> burst = CompletableFuture.allOf(sendAsync(userUrl, "sendAsync", BURST_ASYNC_CALLS));
        CompletableFuture.allOf(sendAsync(paymentsUserUrl, "sendAsync to payments", PAYMENTS_CALLS))
                .join();
        long paymentsMs = (System.nanoTime() - start) / 1_000_000;
        burst.join();
        long burstMs = (System.nanoTime() - start) / 1_000_000;
        out.println("payments: its " + PAYMENTS_CALLS + " calls were answered within " + paymentsMs
                + " ms; the burst to the first API took " + burstMs
                + " ms (each API has its own token service and rate-limit window)");
    }

    private CompletableFuture<?>[] sendAsync(URI url, String via, int count) {
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int number = callNumbers.incrementAndGet();
            calls.add(client.sendAsync(request(url), HttpResponse.BodyHandlers.ofString())
                    .handle((response, failure) -> {
                        if (failure == null) {
                            report(number, via, response);
                        } else {
                            reportFailure(number, via, failure);
                        }
                        return null;
                    }));
        }
        return calls.toArray(new CompletableFuture<?>[0]);
    }

    private HttpRequest userRequest() {
        return request(userUrl);
    }

    private static HttpRequest request(URI url) {
        return HttpRequest.newBuilder(url)
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
