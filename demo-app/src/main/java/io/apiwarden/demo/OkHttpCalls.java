package io.apiwarden.demo;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/** The demo's OkHttp calls: plain OkHttp, no interceptor or authenticator of its own. */
final class OkHttpCalls {
    /** What one call ended with. */
    interface Outcome {
        void record(int number, String via, String status, String requestId);
    }

    /** What one call failed with. */
    interface Failure {
        void record(int number, String via, Throwable failure);
    }

    /** A whole back-off can take a while; this only stops a hung demo. */
    private static final long WAIT_SECONDS = 60;

    private OkHttpCalls() {}

    static void run(
            OkHttpClient client, String url, int enqueued, AtomicInteger numbers, Outcome outcome, Failure failure)
            throws InterruptedException {
        Request request = new Request.Builder()
                .url(url)
                .header("Accept", "application/json")
                .build();
        int number = numbers.incrementAndGet();
        try (Response r = client.newCall(request).execute()) {
            outcome.record(number, "OkHttp execute", status(r), requestId(r));
        } catch (IOException e) {
            failure.record(number, "OkHttp execute", e);
        }
        CountDownLatch done = new CountDownLatch(enqueued);
        for (int i = 0; i < enqueued; i++) {
            int n = numbers.incrementAndGet();
            client.newCall(request).enqueue(new Callback() {
                @Override
                public void onFailure(Call call, IOException e) {
                    failure.record(n, "OkHttp enqueue", e);
                    done.countDown();
                }

                @Override
                public void onResponse(Call call, Response response) {
                    try (Response r = response) {
                        outcome.record(n, "OkHttp enqueue", status(r), requestId(r));
                    }
                    done.countDown();
                }
            });
        }
        done.await(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static String status(Response r) {
        return r.code() + (r.code() >= 500 && r.header("Via") != null ? " via proxy" : "");
    }

    private static String requestId(Response r) {
        String id = r.header("X-Request-Id");
        return id == null ? "(none)" : id;
    }
}
