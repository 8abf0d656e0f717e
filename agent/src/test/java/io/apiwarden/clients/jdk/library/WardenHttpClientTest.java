package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour of a managed JDK client, wired by hand (library mode) against a real local
 * server. Waits are recorded, never slept.
 */
class WardenHttpClientTest {
    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private FakeTimer scheduler = FakeTimer.atOnce(clock);
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server.start(0);
        client = managed(HttpClient.newHttpClient(), "apiwarden.access-token", "access-0");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpClient managed(HttpClient raw, String... extra) {
        String[] props = new String[6 + extra.length];
        props[0] = "apiwarden.base-url";
        props[1] = base().toString();
        props[2] = "apiwarden.refresh-token";
        props[3] = "refresh-0";
        props[4] = "apiwarden.token-url";
        props[5] = server.url("/auth/token").toString();
        System.arraycopy(extra, 0, props, 6, extra.length);
        Warden warden = TestWardens.warden(TestWardens.config(props), tokens, scheduler, clock);
        return WardenHttpClient.wrap(raw, warden);
    }

    private URI base() {
        return server.url("/api/v1").uri();
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(server.url(path).uri()).build();
    }

    private static MockResponse response(int code, String body) {
        return new MockResponse.Builder().code(code).body(body).build();
    }

    private String authorizationOf(RecordedRequest r) {
        return r.getHeaders().get("Authorization");
    }

    @Test
    void attachesTheBearerOnlyUnderTheBaseUrl() throws Exception {
        server.enqueue(response(200, "in"));
        server.enqueue(response(200, "sibling"));
        server.enqueue(response(200, "outside"));

        assertThat(client.send(get("/api/v1/user"), BodyHandlers.ofString()).body())
                .isEqualTo("in");
        client.send(get("/api/v1beta/user"), BodyHandlers.ofString());
        client.send(get("/other"), BodyHandlers.ofString());

        assertThat(authorizationOf(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorizationOf(server.takeRequest())).isNull();
        assertThat(authorizationOf(server.takeRequest())).isNull();
    }

    @Test
    void theAppsResponseCarriesTheAppsRequestWithoutTheToken() throws Exception {
        server.enqueue(response(200, "ok"));
        HttpRequest request = get("/api/v1/user");

        HttpResponse<String> response = client.send(request, BodyHandlers.ofString());

        assertThat(response.request()).isSameAs(request);
        assertThat(response.request().headers().firstValue("Authorization")).isEmpty();
        assertThat(response.toString()).doesNotContain("access-0");
    }

    @Test
    void refreshesOnInvalidTokenAndResendsOnce() throws Exception {
        server.enqueue(response(401, "expired"));
        server.enqueue(response(200, "user"));

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("user");
        assertThat(tokens.refreshTokensSeen()).containsExactly("refresh-0");
        assertThat(authorizationOf(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorizationOf(server.takeRequest())).isEqualTo("Bearer access-1");
    }

    @Test
    void aSecondRejectionGoesToTheAppWithoutAnotherRefresh() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .addHeader(
                        "WWW-Authenticate",
                        "Bearer error=\"invalid_token\", error_description=\"insufficient permissions\"")
                .body("no rights")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                .body("still no rights")
                .build());

        HttpResponse<String> response = client.send(get("/api/v1/admin"), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(response.body()).isEqualTo("still no rights");
        assertThat(tokens.requests()).isEqualTo(1);
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void aBodyThatSaysInvalidTokenIsRecognised() throws Exception {
        server.enqueue(response(400, "{\"message\":\"OAuth invalid token\"}"));
        server.enqueue(response(200, "user"));

        assertThat(client.send(get("/api/v1/user"), BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aFailedRefreshHandsTheAppTheOriginalResponseAndBody() throws Exception {
        tokens.failingWith(new TokenRefreshException("refused", true));
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .addHeader("X-Request-Id", "r-1")
                .body("expired token")
                .build());

        HttpResponse<InputStream> response = client.send(get("/api/v1/user"), BodyHandlers.ofInputStream());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("X-Request-Id")).contains("r-1");
        try (InputStream in = response.body()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("expired token");
        }
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void rateLimitedCallsWaitDoublingDelaysAndSucceed() throws Exception {
        server.enqueue(response(429, "slow down"));
        server.enqueue(response(429, "slow down"));
        server.enqueue(response(429, "slow down"));
        server.enqueue(response(200, "user"));

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.body()).isEqualTo("user");
        assertThat(scheduler.delays())
                .containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(8));
    }

    @Test
    void afterTheLastRetryTheAppGetsTheLastResponse() throws Exception {
        for (int i = 0; i < 6; i++) {
            server.enqueue(response(429, "API rate limit exceeded (global) #" + i));
        }

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.body()).isEqualTo("API rate limit exceeded (global) #5");
        assertThat(server.getRequestCount()).isEqualTo(6);
        assertThat(scheduler.delays())
                .containsExactly(
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(8),
                        Duration.ofSeconds(16),
                        Duration.ofSeconds(32));
    }

    @Test
    void aLongerRetryAfterIsHonouredWhileTheCallsWaitsStayWithinItsWholeBackOff() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Retry-After", "7")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Retry-After", "40")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Retry-After", "3600")
                .build());
        server.enqueue(response(200, "user"));

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(40));
        assertThat(response.statusCode())
                .as("7 + 40 s waited: 5 minutes more would pass the 62 s of one call")
                .isEqualTo(429);
        assertThat(response.headers().firstValue("Retry-After")).hasValue("3600");
    }

    @Test
    void aBodyThatSaysRateLimitExceededIsRecognised() throws Exception {
        server.enqueue(response(403, "{\"message\":\"API rate limit exceeded (global)\"}"));
        server.enqueue(response(200, "user"));

        assertThat(client.send(get("/api/v1/user"), BodyHandlers.ofString()).statusCode())
                .isEqualTo(200);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void anInvalidTokenWithABodyLongerThanThePeekLimitIsRefreshedAndResent() throws Exception {
        for (int call = 0; call < 2; call++) {
            server.enqueue(response(401, "x".repeat(200_000)));
            server.enqueue(response(200, "user"));
        }

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());
        assertThat(response.body()).isEqualTo("user");
        assertThat(tokens.requests()).isEqualTo(1);

        clock.advance(Duration.ofMinutes(1));
        HttpResponse<String> async =
                client.sendAsync(get("/api/v1/user"), BodyHandlers.ofString()).get(10, TimeUnit.SECONDS);
        assertThat(async.body()).isEqualTo("user");
        assertThat(tokens.requests()).isEqualTo(2);
    }

    @Test
    void whenTheRefreshFailsAfterALongInvalidTokenBodyTheAppGetsTheApisAnswerWhole() throws Exception {
        tokens.failingWith(new TokenRefreshException("refused", false));
        String big = "y".repeat(200_000);
        server.enqueue(response(401, "x".repeat(200_000)));
        server.enqueue(response(401, big));

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.body()).isEqualTo(big);
        assertThat(server.getRequestCount())
                .as("asked once more, never refreshed twice")
                .isEqualTo(2);
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void anErrorBodyLongerThanThePeekLimitReachesTheAppWhole() throws Exception {
        String big = "x".repeat(200_000) + " invalid token";
        server.enqueue(response(400, big));

        HttpResponse<String> response = client.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo(big);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    private HttpRequest streamedPost(String path, String body, boolean declareLength) {
        java.util.concurrent.Flow.Publisher<java.nio.ByteBuffer> once = new OneShotPublisher(body);
        return HttpRequest.newBuilder(server.url(path).uri())
                .POST(
                        declareLength
                                ? HttpRequest.BodyPublishers.fromPublisher(
                                        once, body.getBytes(StandardCharsets.UTF_8).length)
                                : HttpRequest.BodyPublishers.fromPublisher(once))
                .build();
    }

    @Test
    void aOneShotBodyIsRecordedAsSentAndResentAfterARefreshWithTheSameBytesAndLength() throws Exception {
        server.enqueue(response(401, "expired"));
        server.enqueue(response(201, "created"));

        assertThat(client.send(streamedPost("/api/v1/items", "{\"name\":\"a\"}", true), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(201);

        assertThat(tokens.requests()).isEqualTo(1);
        for (int i = 0; i < 2; i++) {
            RecordedRequest sent = server.takeRequest();
            assertThat(sent.getBody().utf8()).isEqualTo("{\"name\":\"a\"}");
            assertThat(sent.getHeaders().get("Content-Length")).isEqualTo("12");
            assertThat(sent.getHeaders().get("Transfer-Encoding")).isNull();
        }
    }

    @Test
    void aOneShotBodyOfNoDeclaredLengthIsResentChunkedAsItWasSentAfterEachRateLimitWait() throws Exception {
        server.enqueue(response(429, "slow"));
        server.enqueue(response(429, "slow"));
        server.enqueue(response(200, "done"));
        String body = "x".repeat(100_000);

        HttpResponse<String> response = client.sendAsync(
                        streamedPost("/api/v1/items", body, false), BodyHandlers.ofString())
                .get(10, TimeUnit.SECONDS);

        assertThat(response.body()).isEqualTo("done");
        for (int i = 0; i < 3; i++) {
            RecordedRequest sent = server.takeRequest();
            assertThat(sent.getBody().utf8()).isEqualTo(body);
            assertThat(sent.getHeaders().get("Transfer-Encoding")).isEqualTo("chunked");
            assertThat(sent.getHeaders().get("Content-Length")).isNull();
        }
    }

    @Test
    void aBodyStreamedInManyPiecesIsResentWholeOnBothFaces() throws Exception {
        byte[] content = io.apiwarden.it.apps.StreamedBody.content(20_000);
        for (int face = 0; face < 2; face++) {
            server.enqueue(response(401, "expired"));
            server.enqueue(response(201, "created"));
            HttpRequest post = HttpRequest.newBuilder(
                            server.url("/api/v1/items").uri())
                    .POST(HttpRequest.BodyPublishers.fromPublisher(io.apiwarden.it.apps.StreamedBody.of(content)))
                    .build();

            HttpResponse<String> response = face == 0
                    ? client.send(post, BodyHandlers.ofString())
                    : client.sendAsync(post, BodyHandlers.ofString()).get(10, TimeUnit.SECONDS);

            assertThat(response.statusCode()).isEqualTo(201);
            assertThat(server.takeRequest().getBody().toByteArray())
                    .as("first attempt")
                    .isEqualTo(content);
            assertThat(server.takeRequest().getBody().toByteArray())
                    .as("resend")
                    .isEqualTo(content);
        }
    }

    @Test
    void anInputStreamBodyIsRecordedAndResentSinceItsSupplierMayHandBackASpentStream() throws Exception {
        server.enqueue(response(429, "slow"));
        server.enqueue(response(200, "ok"));
        java.io.ByteArrayInputStream once =
                new java.io.ByteArrayInputStream("{\"order\":42}".getBytes(StandardCharsets.UTF_8));
        HttpRequest post = HttpRequest.newBuilder(server.url("/api/v1/orders").uri())
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> once))
                .build();

        assertThat(client.send(post, BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"order\":42}");
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"order\":42}");
    }

    @Test
    void aOneShotBodyOverTheRecordingBoundIsNotResentDeclaredOrNot() throws Exception {
        HttpClient small = managed(
                HttpClient.newHttpClient(),
                "apiwarden.access-token",
                "access-0",
                "apiwarden.resend.max-recorded-body",
                "11");
        server.enqueue(response(401, "expired"));
        server.enqueue(response(429, "slow"));

        assertThat(small.send(streamedPost("/api/v1/items", "twelve bytes", true), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
        assertThat(small.send(streamedPost("/api/v1/items", "twelve bytes", false), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(429);

        assertThat(server.getRequestCount()).isEqualTo(2);
        assertThat(tokens.requests()).isZero();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("twelve bytes");
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("twelve bytes");
    }

    @Test
    void withRecordingOffAOneShotBodyIsNeverResent() throws Exception {
        HttpClient off = managed(
                HttpClient.newHttpClient(),
                "apiwarden.access-token",
                "access-0",
                "apiwarden.resend.max-recorded-body",
                "0");
        server.enqueue(response(401, "expired"));

        assertThat(off.send(streamedPost("/api/v1/items", "item", true), BodyHandlers.ofString())
                        .statusCode())
                .isEqualTo(401);
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void aBodyTheClientCanSendAgainIsNeverCopiedAndAStreamedOneIsTeedThenReplayed() throws Exception {
        PublishersSeenClient raw = new PublishersSeenClient();
        HttpClient seen = managed(raw, "apiwarden.access-token", "access-0");
        server.enqueue(response(401, "expired"));
        server.enqueue(response(201, "created"));
        server.enqueue(response(401, "expired"));
        server.enqueue(response(201, "created"));
        HttpRequest.BodyPublisher text = HttpRequest.BodyPublishers.ofString("{\"name\":\"a\"}");

        seen.send(
                HttpRequest.newBuilder(server.url("/api/v1/items").uri())
                        .POST(text)
                        .build(),
                BodyHandlers.ofString());
        seen.send(streamedPost("/api/v1/items", "item", true), BodyHandlers.ofString());

        assertThat(raw.publishers).hasSize(4);
        assertThat(raw.publishers.get(0)).isSameAs(text);
        assertThat(raw.publishers.get(1)).isSameAs(text);
        assertThat(raw.publishers.get(2)).isInstanceOf(RecordingPublisher.class);
        assertThat(raw.publishers.get(3)).isInstanceOf(ReplayPublisher.class);
        assertThat(raw.publishers.get(2).contentLength()).isEqualTo(4);
        assertThat(raw.publishers.get(3).contentLength()).isEqualTo(4);
    }

    @Test
    void whenARefreshFailsAndTheAppsHandlerThrowsTheAsyncCallFailsAndTheHandlerRunsOnce() throws Exception {
        tokens.failingWith(new TokenRefreshException("refused", false));
        server.enqueue(response(401, "expired"));
        java.util.concurrent.atomic.AtomicInteger handlerCalls = new java.util.concurrent.atomic.AtomicInteger();
        HttpResponse.BodyHandler<String> strict = info -> {
            handlerCalls.incrementAndGet();
            if (info.statusCode() >= 400) {
                throw new IllegalStateException("HTTP " + info.statusCode());
            }
            return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
        };

        CompletableFuture<HttpResponse<String>> call = client.sendAsync(get("/api/v1/user"), strict);

        assertThat(call)
                .failsWithin(Duration.ofSeconds(10))
                .withThrowableThat()
                .havingRootCause()
                .isInstanceOf(IllegalStateException.class)
                .withMessage("HTTP 401");
        assertThat(handlerCalls).hasValue(1);
    }

    @Test
    void aRepeatableBodyIsResentWhole() throws Exception {
        server.enqueue(response(401, "expired"));
        server.enqueue(response(201, "created"));
        HttpRequest post = HttpRequest.newBuilder(server.url("/api/v1/items").uri())
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"a\"}"))
                .build();

        assertThat(client.send(post, BodyHandlers.ofString()).statusCode()).isEqualTo(201);
        server.takeRequest();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"name\":\"a\"}");
    }

    @Test
    void theAppsOwnAuthorizationIsKeptAndNotRefreshedInIfAbsentMode() throws Exception {
        server.enqueue(response(401, "theirs expired"));
        HttpRequest own = HttpRequest.newBuilder(server.url("/api/v1/user").uri())
                .header("Authorization", "Bearer app-own")
                .build();

        assertThat(client.send(own, BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        assertThat(authorizationOf(server.takeRequest())).isEqualTo("Bearer app-own");
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void alwaysModeReplacesTheAppsAuthorization() throws Exception {
        HttpClient always = managed(
                HttpClient.newHttpClient(), "apiwarden.access-token", "access-0", "apiwarden.authorization", "always");
        server.enqueue(response(200, "ok"));
        HttpRequest own = HttpRequest.newBuilder(server.url("/api/v1/user").uri())
                .header("Authorization", "Bearer app-own")
                .build();

        always.send(own, BodyHandlers.ofString());

        assertThat(server.takeRequest().getHeaders().values("Authorization")).containsExactly("Bearer access-0");
    }

    @Test
    void withoutAConfiguredAccessTokenTheFirstCallWaitsForARefresh() throws Exception {
        HttpClient fresh = managed(HttpClient.newHttpClient());
        server.enqueue(response(200, "ok"));

        fresh.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(authorizationOf(server.takeRequest())).isEqualTo("Bearer access-1");
    }

    @Test
    void sendAsyncRefreshesAndBacksOffWithoutBlocking() throws Exception {
        server.enqueue(response(401, "expired"));
        server.enqueue(response(429, "slow"));
        server.enqueue(response(200, "user"));

        HttpResponse<String> response =
                client.sendAsync(get("/api/v1/user"), BodyHandlers.ofString()).get(10, TimeUnit.SECONDS);

        assertThat(response.body()).isEqualTo("user");
        assertThat(tokens.requests()).isEqualTo(1);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(2));
    }

    @Test
    void cancellingAnAsyncCallCancelsItsPendingRetry() throws Exception {
        scheduler = FakeTimer.onTestTime(clock);
        HttpClient manual = managed(HttpClient.newHttpClient(), "apiwarden.access-token", "access-0");
        server.enqueue(response(429, "slow"));
        server.enqueue(response(200, "never asked for"));

        CompletableFuture<HttpResponse<String>> call = manual.sendAsync(get("/api/v1/user"), BodyHandlers.ofString());
        server.takeRequest(10, TimeUnit.SECONDS);
        awaitPendingTimer();
        call.cancel(true);

        assertThat(call).isCancelled();
        // The timer may be cancelled by cancel() itself or, if cancel() came between the
        // scheduling and the call storing its timer, by the call right after: wait for it.
        assertThat(Eventually.settled(Eventually.PATIENCE, scheduler::givenUp, n -> n > 0))
                .as("pending waits the call gave up")
                .isEqualTo(1);
        scheduler.runDue();
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    /** The timer is set on the client's thread once the 429 is read: wait for that event, bounded. */
    private void awaitPendingTimer() {
        assertThat(Eventually.settled(Eventually.PATIENCE, scheduler::waiting, n -> n > 0))
                .as("waits pending")
                .isEqualTo(1);
    }

    @Test
    void theAppsOwnAuthorizationStaysWithItsOriginOnAManagedRedirect() throws Exception {
        try (MockWebServer elsewhere = new MockWebServer()) {
            elsewhere.start(0);
            elsewhere.enqueue(response(200, "landed"));
            server.enqueue(new MockResponse.Builder()
                    .code(307)
                    .addHeader("Location", elsewhere.url("/landing").toString())
                    .build());
            HttpClient following = managed(
                    HttpClient.newBuilder()
                            .followRedirects(HttpClient.Redirect.NORMAL)
                            .build(),
                    "apiwarden.access-token",
                    "access-0");
            HttpRequest own = HttpRequest.newBuilder(server.url("/api/v1/user").uri())
                    .header("Authorization", "Basic YXBwOnB3")
                    .build();

            following.send(own, BodyHandlers.ofString());

            assertThat(authorizationOf(server.takeRequest())).isEqualTo("Basic YXBwOnB3");
            assertThat(authorizationOf(elsewhere.takeRequest())).isNull();
        }
    }

    @Test
    void aSameOriginRedirectKeepsBeingManaged() throws Exception {
        server.enqueue(new MockResponse.Builder()
                .code(301)
                .addHeader("Location", "/api/v1/users/me")
                .build());
        server.enqueue(response(200, "me"));
        HttpClient following = managed(
                HttpClient.newBuilder()
                        .followRedirects(HttpClient.Redirect.ALWAYS)
                        .build(),
                "apiwarden.access-token",
                "access-0");

        HttpResponse<String> response = following.send(get("/api/v1/user"), BodyHandlers.ofString());

        assertThat(response.body()).isEqualTo("me");
        server.takeRequest();
        RecordedRequest hop = server.takeRequest();
        assertThat(hop.getTarget()).isEqualTo("/api/v1/users/me");
        assertThat(authorizationOf(hop)).isEqualTo("Bearer access-0");
    }

    @Test
    void concurrentRejectionsShareOneRefresh() throws Exception {
        tokens.holding();
        server.setDispatcher(new mockwebserver3.Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return "Bearer access-0".equals(request.getHeaders().get("Authorization"))
                        ? response(401, "expired")
                        : response(200, "ok");
            }
        });
        List<CompletableFuture<HttpResponse<String>>> calls = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(client.sendAsync(get("/api/v1/user"), BodyHandlers.ofString()));
        }
        awaitRequests(20);
        tokens.release();

        for (CompletableFuture<HttpResponse<String>> call : calls) {
            assertThat(call.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(tokens.requests()).isEqualTo(1);
    }

    private void awaitRequests(int n) {
        assertThat(Eventually.settled(Eventually.PATIENCE, server::getRequestCount, count -> count >= n))
                .as("requests the server received")
                .isGreaterThanOrEqualTo(n);
    }
}
