package io.apiwarden.clients.apache5.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.Eventually;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.Protocol;
import okio.Buffer;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.io.CloseMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Apache HttpClient 5 (async) managed in library mode, without the agent, against a real local server; waits are the test's. */
class WardenApacheHttpAsyncTest {
    private static final String INVALID_TOKEN = "{\"message\":\"OAuth invalid token\"}";
    private static final String RATE_LIMITED = "API rate limit exceeded (global)";

    private final MockWebServer server = new MockWebServer();
    private final MockWebServer elsewhere = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private FakeTimer scheduler = FakeTimer.atOnce(clock);
    private PoolingAsyncClientConnectionManager connections;
    private Warden warden;
    private CloseableHttpAsyncClient client;

    private WardenConfig config(String... extra) {
        List<String> props = new ArrayList<>(List.of(
                "apiwarden.base-url", server.url("/api/v1").toString(),
                "apiwarden.access-token", "access-0",
                "apiwarden.refresh-token", "refresh-0",
                "apiwarden.token-url", server.url("/auth/token").toString(),
                "apiwarden.backoff.initial-delay", "1s"));
        props.addAll(Arrays.asList(extra));
        return TestWardens.config(props.toArray(new String[0]));
    }

    private CloseableHttpAsyncClient client(HttpAsyncClientBuilder builder, String... extra) throws IOException {
        server.start(0);
        return start(builder, new Warden(config(extra), tokens, scheduler, clock));
    }

    private CloseableHttpAsyncClient start(HttpAsyncClientBuilder builder, Warden w) {
        warden = w;
        connections = PoolingAsyncClientConnectionManagerBuilder.create().build();
        client = WardenApacheHttp.create(warden)
                .manage(builder.setConnectionManager(connections))
                .build();
        client.start();
        return client;
    }

    private CloseableHttpAsyncClient client(String... extra) throws IOException {
        return client(HttpAsyncClientBuilder.create(), extra);
    }

    @AfterEach
    void stop() throws IOException {
        if (client != null) {
            client.close(CloseMode.IMMEDIATE);
        }
        server.close();
        elsewhere.close();
    }

    private String url(String path) {
        return server.url(path).toString();
    }

    private Future<SimpleHttpResponse> send(SimpleHttpRequest request) {
        return client.execute(request, null);
    }

    private SimpleHttpResponse get(String path) throws Exception {
        return send(SimpleRequestBuilder.get(url(path)).build()).get(10, TimeUnit.SECONDS);
    }

    private static String authorization(RecordedRequest request) {
        return request.getHeaders().get("Authorization");
    }

    @Test
    void sendsTheBearerToTheApiAndRefreshesOnceAfterAnInvalidTokenReadFromTheBody() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(403).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(200);
        assertThat(response.getBodyText()).isEqualTo("ok");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aSecondRefusalGoesToTheAppWithItsBody() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(401);
        assertThat(response.getBodyText()).isEqualTo(INVALID_TOKEN);
        assertThat(server.getRequestCount())
                .as("refreshed and resent once, no more")
                .isEqualTo(2);
        assertThat(tokens.requests()).isEqualTo(1);
        Eventually.await(
                "every connection back in the pool",
                () -> connections.getTotalStats().getLeased() == 0);
    }

    @Test
    void aRefusalWhoseRefreshFailsGoesToTheAppWithItsBody() throws Exception {
        tokens.failingWith(new TokenRefreshException("invalid_grant", true));
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(401);
        assertThat(response.getBodyText())
                .as("held while the refresh was tried")
                .isEqualTo(INVALID_TOKEN);
        assertThat(server.getRequestCount()).isEqualTo(1);
        Eventually.await(
                "every connection back in the pool",
                () -> connections.getTotalStats().getLeased() == 0);
    }

    @Test
    void theResendWaitsForTheRefreshHoldingNoConnection() throws Exception {
        tokens.holding();
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        Future<SimpleHttpResponse> call =
                send(SimpleRequestBuilder.get(url("/api/v1/user")).build());
        Eventually.await(
                "a refresh under way and no connection leased",
                () -> tokens.requests() == 1 && connections.getTotalStats().getLeased() == 0);
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(call.isDone()).isFalse();

        tokens.release();

        assertThat(call.get(10, TimeUnit.SECONDS).getBodyText()).isEqualTo("ok");
        server.takeRequest();
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-1");
    }

    @Test
    void aRequestOutsideTheApiGetsNoBearer() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body("no").build());

        SimpleHttpResponse response = get("/other");

        assertThat(response.getCode()).isEqualTo(401);
        assertThat(authorization(server.takeRequest())).isNull();
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void anErrorBodyThatWasPeekedReachesTheAppWhole() throws Exception {
        client();
        String longBody = "x".repeat(200_000);
        server.enqueue(new MockResponse.Builder().code(400).body(longBody).build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(400);
        assertThat(response.getBodyText()).isEqualTo(longBody);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aGzippedErrorBodyIsReadAsTheServerMeantItAndTheAppStillGetsItDecoded() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .addHeader("Content-Encoding", "gzip")
                .body(gzip(INVALID_TOKEN))
                .build());
        server.enqueue(new MockResponse.Builder()
                .code(403)
                .addHeader("Content-Encoding", "gzip")
                .body(gzip("{\"message\":\"forbidden\"}"))
                .build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(tokens.requests())
                .as("the first body was read through its gzip")
                .isEqualTo(1);
        assertThat(response.getCode()).isEqualTo(403);
        assertThat(response.getBodyText()).isEqualTo("{\"message\":\"forbidden\"}");
    }

    @Test
    void aResponseWithoutABodyIsJudgedByItsHead() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).build());
        server.enqueue(new MockResponse.Builder().code(204).build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(204);
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aRateLimitedCallIsResentAfterTheBackOffAndTheClientsOwnRetryNeverSeesA429() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(429).body(RATE_LIMITED).build());
        server.enqueue(new MockResponse.Builder().code(429).body(RATE_LIMITED).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getBodyText()).isEqualTo("ok");
        assertThat(server.getRequestCount()).isEqualTo(3);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void whileACallWaitsOutTheRateLimitItHoldsNoConnectionAndACallStartedMeanwhileWaitsAtTheGate() throws Exception {
        FakeTimer time = FakeTimer.onTestTime(clock);
        scheduler = time;
        client();
        server.enqueue(new MockResponse.Builder().code(429).body(RATE_LIMITED).build());
        server.enqueue(new MockResponse.Builder().code(200).body("first").build());
        server.enqueue(new MockResponse.Builder().code(200).body("second").build());

        Future<SimpleHttpResponse> refused =
                send(SimpleRequestBuilder.get(url("/api/v1/a")).build());
        Eventually.await(
                "a wait pending and no connection leased",
                () -> time.waiting() > 0 && connections.getTotalStats().getLeased() == 0);
        Future<SimpleHttpResponse> later =
                send(SimpleRequestBuilder.get(url("/api/v1/b")).build());
        Eventually.await(
                "one call waiting at the gate", () -> warden.throttleGate().waiting() == 1);

        assertThat(server.getRequestCount())
                .as("nothing more reaches the API while the window holds")
                .isEqualTo(1);
        time.advance(Duration.ofSeconds(1));

        assertThat(refused.get(10, TimeUnit.SECONDS).getBodyText())
                .as("its own retry went first")
                .isEqualTo("first");
        assertThat(later.get(10, TimeUnit.SECONDS).getBodyText()).isEqualTo("second");
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void cancellingTheAppsFutureDuringAWaitEndsItAtOnceHoldingNothing() throws Exception {
        FakeTimer manual = FakeTimer.onTestTime(clock);
        scheduler = manual;
        client();
        server.enqueue(new MockResponse.Builder().code(429).body(RATE_LIMITED).build());
        List<String> callback = new ArrayList<>();
        Future<SimpleHttpResponse> call = client.execute(
                SimpleRequestBuilder.get(url("/api/v1/user")).build(),
                new org.apache.hc.core5.concurrent.FutureCallback<>() {
                    @Override
                    public void completed(SimpleHttpResponse result) {
                        callback.add("completed");
                    }

                    @Override
                    public void failed(Exception ex) {
                        callback.add("failed");
                    }

                    @Override
                    public void cancelled() {
                        callback.add("cancelled");
                    }
                });
        Eventually.await(
                "one wait pending and no connection leased",
                () -> manual.waiting() == 1 && connections.getTotalStats().getLeased() == 0);

        assertThat(call.cancel(true)).isTrue();

        assertThat(manual.givenUp())
                .as("the wait is a timer, cancelled: no thread held it")
                .isEqualTo(1);
        assertThat(manual.waiting()).isZero();
        assertThatThrownBy(() -> call.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
        assertThat(callback).containsExactly("cancelled");
        manual.runDue();
        assertThat(server.getRequestCount()).as("nothing resent").isEqualTo(1);
        assertThat(connections.getTotalStats().getLeased()).isZero();
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

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getBodyText()).isEqualTo("there");
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

        send(SimpleRequestBuilder.get(url("/api/v1/user"))
                        .setHeader("Authorization", "Basic YXBwOmFwcA==")
                        .build())
                .get(10, TimeUnit.SECONDS);

        assertThat(authorization(server.takeRequest())).isEqualTo("Basic YXBwOmFwcA==");
    }

    @Test
    void aRepeatableBodyIsResentWhole() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(201).body("made").build());

        SimpleHttpResponse response = send(SimpleRequestBuilder.post(url("/api/v1/items"))
                        .setBody("{\"a\":1}", ContentType.APPLICATION_JSON)
                        .build())
                .get(10, TimeUnit.SECONDS);

        assertThat(response.getBodyText()).isEqualTo("made");
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"a\":1}");
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"a\":1}");
    }

    @Test
    void aBodyThatCannotBeProducedTwiceIsRecordedAndResentFromTheRecording() throws Exception {
        client();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(201).body("made").build());

        SimpleHttpResponse response = postOneShot("{\"b\":2}");

        assertThat(response.getCode()).isEqualTo(201);
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"b\":2}");
        assertThat(server.takeRequest().getBody().utf8())
                .as("the one-shot body, replayed")
                .isEqualTo("{\"b\":2}");
    }

    @Test
    void aBodyThatCannotBeProducedTwiceIsNotResentWhenRecordingIsOff() throws Exception {
        client("apiwarden.resend.max-recorded-body", "0");
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());

        SimpleHttpResponse response = postOneShot("{}");

        assertThat(response.getCode()).isEqualTo(401);
        assertThat(response.getBodyText()).isEqualTo(INVALID_TOKEN);
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void aFailureOfTheAgentsOwnLetsTheRequestGoAsWithoutTheAgent() throws Exception {
        server.start(0);
        Telemetry broken = new Telemetry() {
            @Override
            public CallObserver call(String method, String url, String host, int port) {
                throw new IllegalStateException("broken telemetry");
            }

            @Override
            public RefreshObserver refresh(URI tokenUrl) {
                return RefreshObserver.NOOP;
            }
        };
        start(HttpAsyncClientBuilder.create(), new Warden(config(), tokens, scheduler, clock, broken));
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getCode()).isEqualTo(401);
        assertThat(authorization(server.takeRequest())).isNull();
    }

    @Test
    void buildingTwiceFromOneBuilderManagesEachCallOnce() throws Exception {
        HttpAsyncClientBuilder builder = HttpAsyncClientBuilder.create();
        client(builder);
        try (CloseableHttpAsyncClient second = builder.build()) {
            second.start();
            server.enqueue(new MockResponse.Builder().code(429).build());
            server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

            assertThat(second.execute(
                                    SimpleRequestBuilder.get(url("/api/v1/user"))
                                            .build(),
                                    null)
                            .get(10, TimeUnit.SECONDS)
                            .getBodyText())
                    .isEqualTo("ok");
        }
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void anHttp2ClientIsManagedToo() throws Exception {
        server.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
        server.start(0);
        warden = new Warden(config(), tokens, scheduler, clock);
        client = WardenApacheHttp.create(warden)
                .manage(H2AsyncClientBuilder.create())
                .build();
        client.start();
        server.enqueue(new MockResponse.Builder().code(401).body(INVALID_TOKEN).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());

        SimpleHttpResponse response = get("/api/v1/user");

        assertThat(response.getBodyText()).isEqualTo("ok");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-0");
        assertThat(authorization(server.takeRequest())).isEqualTo("Bearer access-1");
    }

    private SimpleHttpResponse postOneShot(String body)
            throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
        BasicRequestProducer request = new BasicRequestProducer(
                Method.POST, URI.create(url("/api/v1/items")), new io.apiwarden.adapters.faces.OneShotProducer(body));
        return client.execute(request, SimpleResponseConsumer.create(), null).get(10, TimeUnit.SECONDS);
    }

    private static Buffer gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return new Buffer().write(bytes.toByteArray());
    }
}
