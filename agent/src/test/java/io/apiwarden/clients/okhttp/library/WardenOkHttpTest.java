package io.apiwarden.clients.okhttp.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** OkHttp managed in library mode, without the agent, against a real local server; waits are the test's. */
class WardenOkHttpTest {
    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private WardenOkHttp okHttp;
    private OkHttpClient client;

    @BeforeEach
    void start() throws Exception {
        server.start(0);
        Warden warden = TestWardens.warden(
                TestWardens.config(
                        "apiwarden.base-url", server.url("/api/v1").toString(),
                        "apiwarden.access-token", "access-0",
                        "apiwarden.refresh-token", "refresh-0",
                        "apiwarden.token-url", server.url("/auth/token").toString(),
                        "apiwarden.backoff.initial-delay", "1s"),
                tokens,
                scheduler,
                clock);
        okHttp = WardenOkHttp.create(warden);
        client = okHttp.manage(new OkHttpClient.Builder()).build();
    }

    @AfterEach
    void stop() {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
        server.close();
    }

    private Request get(String path) {
        return new Request.Builder().url(server.url(path)).build();
    }

    @Test
    void executeSendsTheBearerRefreshesOnceAndKeepsTheTokenOutOfTheAppsResponse() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"message\":\"OAuth invalid token\"}")
                .build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        try (Response response = client.newCall(get("/api/v1/user")).execute()) {
            assertThat(response.code()).isEqualTo(200);
            assertThat(response.request().header("Authorization")).isNull();
        }
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-0");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void managingACopiedBuilderAgainDoesNotAddTheInterceptorTwice() {
        OkHttpClient copy = okHttp.manage(client.newBuilder()).build();

        assertThat(copy.interceptors()).hasSize(1);
        assertThat(copy.networkInterceptors()).hasSize(1);
    }

    @Test
    void anEnqueuedCallWaitsOutTheRateLimitOnTheTimerAndCallsTheAppBackOnce() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .body("API rate limit exceeded (global)")
                .build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());
        Call call = client.newCall(get("/api/v1/user"));
        Answer answer = new Answer();

        okHttp.enqueue(call, answer);
        server.takeRequest();
        awaitPendingWait();
        assertThat(answer.result).isNotDone();
        scheduler.runDue();

        assertThat(answer.result.get(5, TimeUnit.SECONDS)).isEqualTo("ok");
        assertThat(answer.call).isSameAs(call);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1));
    }

    /** A one-shot body, as a stream the app pipes in: written in pieces, once; a second write fails. */
    private static okhttp3.RequestBody oneShot(String content, boolean declareLength) {
        byte[] bytes = content.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        java.util.concurrent.atomic.AtomicBoolean used = new java.util.concurrent.atomic.AtomicBoolean();
        return new okhttp3.RequestBody() {
            @Override
            public okhttp3.MediaType contentType() {
                return okhttp3.MediaType.get("application/json");
            }

            @Override
            public long contentLength() {
                return declareLength ? bytes.length : -1;
            }

            @Override
            public boolean isOneShot() {
                return true;
            }

            @Override
            public void writeTo(okio.BufferedSink sink) throws IOException {
                if (!used.compareAndSet(false, true)) {
                    throw new IOException("this body was already written");
                }
                for (int i = 0; i < bytes.length; i += 5000) {
                    sink.write(bytes, i, Math.min(5000, bytes.length - i));
                    sink.flush();
                }
            }
        };
    }

    @Test
    void aOneShotBodyIsRecordedAsWrittenAndResentAfterARefreshWithTheSameBytesAndLength() throws Exception {
        String body = "{\"items\":\"" + "x".repeat(30_000) + "\"}";
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"message\":\"OAuth invalid token\"}")
                .build());
        server.enqueue(new MockResponse.Builder().code(201).body("created").build());

        try (Response response = client.newCall(new Request.Builder()
                        .url(server.url("/api/v1/items"))
                        .post(oneShot(body, true))
                        .build())
                .execute()) {
            assertThat(response.code()).isEqualTo(201);
        }
        for (int i = 0; i < 2; i++) {
            mockwebserver3.RecordedRequest sent = server.takeRequest();
            assertThat(sent.getBody().utf8()).isEqualTo(body);
            assertThat(sent.getHeaders().get("Content-Length")).isEqualTo(String.valueOf(body.length()));
            assertThat(sent.getHeaders().get("Content-Type")).startsWith("application/json");
        }
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void anEnqueuedOneShotBodyIsResentChunkedFromItsRecordingByTheCopyAfterTheWait() throws Exception {
        String body = "y".repeat(12_345);
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .body("API rate limit exceeded (global)")
                .build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());
        Call call = client.newCall(new Request.Builder()
                .url(server.url("/api/v1/items"))
                .post(oneShot(body, false))
                .build());
        Answer answer = new Answer();

        okHttp.enqueue(call, answer);
        awaitPendingWait();
        scheduler.runDue();

        assertThat(answer.result.get(5, TimeUnit.SECONDS)).isEqualTo("ok");
        for (int i = 0; i < 2; i++) {
            mockwebserver3.RecordedRequest sent = server.takeRequest();
            assertThat(sent.getBody().utf8()).isEqualTo(body);
            assertThat(sent.getHeaders().get("Transfer-Encoding")).isEqualTo("chunked");
        }
    }

    @Test
    void aOneShotBodyOverTheBoundIsNotResent() throws Exception {
        OkHttpClient small = WardenOkHttp.create(TestWardens.warden(
                        TestWardens.config(
                                "apiwarden.base-url", server.url("/api/v1").toString(),
                                "apiwarden.access-token", "access-0",
                                "apiwarden.refresh-token", "refresh-0",
                                "apiwarden.token-url", server.url("/auth/token").toString(),
                                "apiwarden.resend.max-recorded-body", "1KiB"),
                        tokens,
                        scheduler,
                        clock))
                .manage(new OkHttpClient.Builder())
                .build();
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"message\":\"OAuth invalid token\"}")
                .build());

        try (Response response = small.newCall(new Request.Builder()
                        .url(server.url("/api/v1/items"))
                        .post(oneShot("z".repeat(2000), false))
                        .build())
                .execute()) {
            assertThat(response.code()).isEqualTo(401);
        }
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("z".repeat(2000));
        assertThat(tokens.requests()).isZero();
    }

    /** The wait is scheduled on the dispatcher's thread once the 429 is back: polled, never slept through. */
    private void awaitPendingWait() {
        assertThat(Eventually.settled(Eventually.PATIENCE, scheduler::waiting, n -> n > 0))
                .as("waits pending")
                .isEqualTo(1);
    }

    private static final class Answer implements Callback {
        final CompletableFuture<String> result = new CompletableFuture<>();
        volatile Call call;

        @Override
        public void onResponse(Call call, Response response) throws IOException {
            this.call = call;
            try (response) {
                result.complete(response.body().string());
            }
        }

        @Override
        public void onFailure(Call call, IOException e) {
            this.call = call;
            result.completeExceptionally(e);
        }
    }
}
