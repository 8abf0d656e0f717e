package io.apiwarden.clients.apache5.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okio.Buffer;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Apache HttpClient 5 (classic) managed in library mode, without the agent, against a real local server; waits are the test's. */
class WardenApacheHttpTest {
    private static final String INVALID_TOKEN = "{\"message\":\"OAuth invalid token\"}";

    private final MockWebServer server = new MockWebServer();
    private final MockWebServer elsewhere = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private FakeTimer scheduler = FakeTimer.atOnce(clock);
    private CloseableHttpClient client;

    private CloseableHttpClient client(HttpClientBuilder builder) throws IOException {
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
        client = WardenApacheHttp.create(warden).manage(builder).build();
        return client;
    }

    private CloseableHttpClient client() throws IOException {
        return client(HttpClientBuilder.create());
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close();
        }
        server.close();
        elsewhere.close();
    }

    private String url(String path) {
        return server.url(path).toString();
    }

    private static String text(ClassicHttpResponse response) throws IOException {
        try {
            return EntityUtils.toString(response.getEntity(), StandardCharsets.UTF_8);
        } catch (org.apache.hc.core5.http.ParseException e) {
            throw new IOException(e);
        }
    }

    private static String authorization(RecordedRequest request) {
        return request.getHeaders().get("Authorization");
    }

    @Test
    void sendsTheBearerToTheApiAndRefreshesOnceAfterAnInvalidTokenReadFromTheBody() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(403).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo("ok");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aRequestOutsideTheApiGetsNoBearer() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body("no").build());

        int status = client.execute(new HttpGet(url("/other")), ClassicHttpResponse::getCode);

        assertThat(status).isEqualTo(401);
        assertThat(authorization(server.takeRequest())).isNull();
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void anErrorBodyThatWasPeekedReachesTheAppWhole() throws Exception {
        client();
        String longBody = "x".repeat(200_000);
        server.enqueue(new MockResponse.Builder().code(400).body(longBody).build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo(longBody);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aGzippedErrorBodyIsReadAsTheServerMeantIt() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .addHeader("Content-Encoding", "gzip")
                .body(gzip(INVALID_TOKEN))
                .build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo("ok");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aClientWithoutDecompressionIsManagedToo() throws Exception {
        client(HttpClientBuilder.create().disableContentCompression());
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo("ok");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-1");
    }

    @Test
    void aRateLimitedCallIsResentAfterTheBackOffAndEachAttemptIsTheAgentsOnly() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .body("API rate limit exceeded (global)")
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .body("API rate limit exceeded (global)")
                .build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo("ok");
        // The client's own retry handler sits above the agent's and never saw a 429.
        assertThat(server.getRequestCount()).isEqualTo(3);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void buildingTwiceFromOneBuilderManagesEachCallOnce() throws Exception {
        HttpClientBuilder builder = HttpClientBuilder.create();
        client(builder);
        try (CloseableHttpClient second = builder.build()) {
            server.enqueue(new MockResponse.Builder().code(429).build());
            server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

            assertThat(second.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text))
                    .isEqualTo("ok");
        }
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void aRedirectToAnotherOriginGetsNoBearerAndOneWithinTheApiKeepsIt() throws Exception {
        client();
        elsewhere.start(0);
        server.enqueue(new MockResponse.Builder()
                .code(307)
                .addHeader("Location", url("/api/v1/moved"))
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(302)
                .addHeader("Location", elsewhere.url("/landing").toString())
                .build());
        elsewhere.enqueue(new MockResponse.Builder().code(200).body("there").build());

        String body = client.execute(new HttpGet(url("/api/v1/user")), WardenApacheHttpTest::text);

        assertThat(body).isEqualTo("there");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-0");
        RecordedRequest moved = server.takeRequest();
        assertThat(moved.getUrl().encodedPath()).isEqualTo("/api/v1/moved");
        assertThat(authorization(moved)).isEqualTo("Bearer access-0");
        assertThat(authorization(elsewhere.takeRequest())).isNull();
    }

    @Test
    void theAppsOwnAuthorizationIsKept() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());
        HttpGet get = new HttpGet(url("/api/v1/user"));
        get.setHeader("Authorization", "Basic YXBwOmFwcA==");

        client.execute(get, WardenApacheHttpTest::text);

        assertThat(authorization(server.takeRequest())).isEqualTo("Basic YXBwOmFwcA==");
    }

    @Test
    void aBodyThatCannotBeReadTwiceIsRecordedAsSentAndResentWithItsDeclaredLength() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(201).body("made").build());
        HttpPost post = new HttpPost(url("/api/v1/items"));
        post.setEntity(new InputStreamEntity(
                new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)), 2, ContentType.APPLICATION_JSON));

        assertThat(client.execute(post, WardenApacheHttpTest::text)).isEqualTo("made");

        assertThat(tokens.requests()).isEqualTo(1);
        for (int i = 0; i < 2; i++) {
            RecordedRequest sent = server.takeRequest();
            assertThat(sent.getBody().utf8()).isEqualTo("{}");
            assertThat(sent.getHeaders().get("Content-Length")).isEqualTo("2");
            assertThat(sent.getHeaders().get("Content-Type")).startsWith("application/json");
        }
    }

    @Test
    void aBodyThatCannotBeReadTwiceAndIsOverTheRecordingBoundIsNotResent() throws Exception {
        server.start(0);
        client = WardenApacheHttp.create(TestWardens.warden(
                        TestWardens.config(
                                "apiwarden.base-url", server.url("/api/v1").toString(),
                                "apiwarden.access-token", "access-0",
                                "apiwarden.refresh-token", "refresh-0",
                                "apiwarden.token-url", server.url("/auth/token").toString(),
                                "apiwarden.resend.max-recorded-body", "1"),
                        tokens,
                        scheduler,
                        clock))
                .manage(HttpClientBuilder.create())
                .build();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        HttpPost post = new HttpPost(url("/api/v1/items"));
        post.setEntity(new InputStreamEntity(
                new ByteArrayInputStream("{}".getBytes(StandardCharsets.UTF_8)), -1, ContentType.APPLICATION_JSON));

        int status = client.execute(post, ClassicHttpResponse::getCode);

        assertThat(status).isEqualTo(401);
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{}");
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void theClientsOwnRetryOfA429TheAgentGaveUpOnIsTheSameCallWithNoSecondBackOff() throws Exception {
        client();
        for (int i = 0; i < 7; i++) {
            server.enqueue(new MockResponse.Builder()
                    .code(429)
                    .addHeader("Retry-After", "0")
                    .body("API rate limit exceeded (global)")
                    .build());
        }
        server.enqueue(
                new MockResponse.Builder().code(200).body("not asked for").build());

        int status = client.execute(new HttpGet(url("/api/v1/user")), ClassicHttpResponse::getCode);

        assertThat(status).isEqualTo(429);
        // Five resends of the agent's, then the client's own one, as it would make without the agent.
        assertThat(server.getRequestCount()).isEqualTo(7);
        // The back-off's waits; the client's retry may wait at the closed rate-limit gate after them.
        assertThat(scheduler.delays())
                .startsWith(
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(4),
                        Duration.ofSeconds(8),
                        Duration.ofSeconds(16));
    }

    @Test
    void aRepeatableBodyIsResentWhole() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(201).body("made").build());
        HttpPost post = new HttpPost(url("/api/v1/items"));
        post.setEntity(new StringEntity("{\"a\":1}", ContentType.APPLICATION_JSON));

        assertThat(client.execute(post, WardenApacheHttpTest::text)).isEqualTo("made");
        server.takeRequest();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"a\":1}");
    }

    @Test
    void cancellingTheRequestEndsTheWaitAndNothingIsResent() throws Exception {
        scheduler = FakeTimer.onTestTime(clock);
        client();
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .body("API rate limit exceeded (global)")
                .build());
        HttpGet get = new HttpGet(url("/api/v1/user"));
        CompletableFuture<Object> outcome = CompletableFuture.supplyAsync(() -> {
            try {
                return client.execute(get, ClassicHttpResponse::getCode);
            } catch (IOException e) {
                return e;
            }
        });
        assertThat(Eventually.settled(Eventually.PATIENCE, scheduler::waiting, n -> n > 0))
                .as("waits pending")
                .isEqualTo(1);

        get.cancel();

        assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
        assertThat(scheduler.givenUp()).isEqualTo(1);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    private static Buffer gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return new Buffer().write(bytes.toByteArray());
    }
}
