package io.apiwarden.clients.reactornetty.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.RecordingTelemetry;
import io.apiwarden.testing.TestWardens;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.Connection;
import reactor.netty.http.client.ConnectAccess;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;

/**
 * The Reactor Netty adapter against a real local server, driven as the woven code drives it
 * ({@code connect()}'s publisher through the glue, the glue's observer on the client); waits are
 * the test's.
 */
class ReactorNettyGlueTest {
    private static final Duration LONG_ENOUGH = Duration.ofSeconds(10);

    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final CountDownLatch waitScheduled = new CountDownLatch(1);
    private final CountDownLatch waitCancelled = new CountDownLatch(1);
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private final RecordingTelemetry telemetry = new RecordingTelemetry();
    private final ConnectionProvider pool = ConnectionProvider.create("glue-test", 4);
    private ReactorNettyGlue glue;
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server.start(0);
        Warden warden = new Warden(
                TestWardens.config(
                        "apiwarden.base-url", server.url("/api/v1").toString(),
                        "apiwarden.access-token", "access-0",
                        "apiwarden.refresh-token", "refresh-0",
                        "apiwarden.token-url", server.url("/auth/token").toString(),
                        "apiwarden.backoff.initial-delay", "1s"),
                tokens,
                scheduler,
                clock,
                telemetry);
        DelayScheduler signalling = new DelayScheduler() {
            @Override
            public Scheduled schedule(Duration delay, Runnable task) {
                Scheduled s = scheduler.schedule(delay, task);
                waitScheduled.countDown();
                return () -> {
                    s.cancel();
                    waitCancelled.countDown();
                };
            }

            @Override
            public void sleep(Duration delay) {
                throw new AssertionError("a Reactor Netty call never blocks to wait");
            }
        };
        glue = new ReactorNettyGlue(warden, signalling, Runnable::run, ReactorNettyGlue.SPRING_BODY_FUNCTIONS);
        client = HttpClient.create(pool).observe(AttemptHeadersObserver.INSTANCE);
    }

    @AfterEach
    void stop() {
        pool.disposeLater().block(LONG_ENOUGH);
        server.close();
    }

    private HttpClient get(HttpClient from, String path) {
        return (HttpClient) from.get().uri(server.url(path).toString());
    }

    /** What the woven {@code connect()} returns for this request. */
    private Mono<? extends Connection> managed(HttpClient request) {
        return glue.manage(request, ConnectAccess.connect(request));
    }

    /** The status and body the app reads, as Reactor Netty's {@code responseSingle} does. */
    private static Mono<String> statusAndBody(Mono<? extends Connection> connect) {
        return connect.flatMap(c -> {
            HttpClientResponse response = (HttpClientResponse) c;
            return c.inbound()
                    .receive()
                    .aggregate()
                    .asString()
                    .defaultIfEmpty("")
                    .map(body -> response.status().code() + " " + body);
        });
    }

    private static MockResponse status(int code, String body) {
        return new MockResponse.Builder().code(code).body(body).build();
    }

    @Test
    void aRequestOutsideTheApiIsLeftAsItIs() throws Exception {
        HttpClient request = (HttpClient) client.get().uri(server.url("/other").toString());
        Mono<? extends Connection> connect = ConnectAccess.connect(request);

        assertThat(glue.manage(request, connect)).isSameAs(connect);
    }

    @Test
    void aGetCarriesTheBearerAndARefusedTokenIsRefreshedOnce() throws Exception {
        server.enqueue(status(401, "{\"message\":\"OAuth invalid token\"}"));
        server.enqueue(status(200, "user"));

        String got = statusAndBody(managed(get(client, "/api/v1/user"))).block(LONG_ENOUGH);

        assertThat(got).isEqualTo("200 user");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-0");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-1");
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aPostWhoseBodyIsAFunctionIsResentWithTheSameBody() throws Exception {
        server.enqueue(status(401, "{\"message\":\"OAuth invalid token\"}"));
        server.enqueue(status(201, "made"));

        HttpClient.ResponseReceiver<?> post = client.post()
                .uri(server.url("/api/v1/items").toString())
                .send((req, out) -> out.sendString(Mono.just("{\"name\":\"x\"}")));
        String got = statusAndBody(managed((HttpClient) post)).block(LONG_ENOUGH);

        assertThat(got).isEqualTo("201 made");
        RecordedRequest first = server.takeRequest();
        RecordedRequest second = server.takeRequest();
        assertThat(second.getHeaders().get("Authorization")).isEqualTo("Bearer access-1");
        assertThat(second.getBody().utf8()).isEqualTo(first.getBody().utf8()).isEqualTo("{\"name\":\"x\"}");
    }

    @Test
    void aBodyPublisherHandedOverOnceIsNotResent() throws Exception {
        server.enqueue(status(401, "{\"message\":\"OAuth invalid token\"}"));

        HttpClient.ResponseReceiver<?> post = client.post()
                .uri(server.url("/api/v1/items").toString())
                .send(ByteBufFlux.fromString(Mono.just("{\"name\":\"x\"}")));
        String got = statusAndBody(managed((HttpClient) post)).block(LONG_ENOUGH);

        assertThat(got).startsWith("401 ");
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(tokens.requests()).isZero();
    }

    @Test
    void aRateLimitedCallWaitsOnTheTimerAndDisposingItStopsTheRetry() throws Exception {
        server.enqueue(status(429, "{\"message\":\"API rate limit exceeded (global)\"}"));

        CompletableFuture<String> app = new CompletableFuture<>();
        Disposable call = statusAndBody(managed(get(client, "/api/v1/user")))
                .subscribe(app::complete, app::completeExceptionally);

        assertThat(waitScheduled.await(10, TimeUnit.SECONDS))
                .as("the wait was scheduled")
                .isTrue();
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1));
        assertThat(app).isNotDone();
        call.dispose();

        // The engine cancels the wait on the thread that scheduled it if the dispose came first.
        assertThat(waitCancelled.await(10, TimeUnit.SECONDS))
                .as("the wait was cancelled")
                .isTrue();
        assertThat(scheduler.givenUp()).isEqualTo(1);
        scheduler.runDue();
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(app).isNotDone();
    }

    @Test
    void aRateLimitedCallIsResentWhenTheWaitEnds() throws Exception {
        server.enqueue(status(429, "{\"message\":\"API rate limit exceeded (global)\"}"));
        server.enqueue(status(200, "user"));

        CompletableFuture<String> app = new CompletableFuture<>();
        statusAndBody(managed(get(client, "/api/v1/user"))).subscribe(app::complete, app::completeExceptionally);
        assertThat(waitScheduled.await(10, TimeUnit.SECONDS)).isTrue();
        scheduler.runDue();

        assertThat(app.get(10, TimeUnit.SECONDS)).isEqualTo("200 user");
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void anAuthorizationTheAppsBodyFunctionSetsIsKeptAndItsRefusalGoesToTheApp() throws Exception {
        server.enqueue(status(401, "{\"message\":\"OAuth invalid token\"}"));

        HttpClient.ResponseReceiver<?> get = client.request(io.netty.handler.codec.http.HttpMethod.GET)
                .uri(server.url("/api/v1/user").toString())
                .send((req, out) -> {
                    req.header("Authorization", "Bearer the-apps-own");
                    return out;
                });
        String got = statusAndBody(managed((HttpClient) get)).block(LONG_ENOUGH);

        assertThat(got).startsWith("401 ");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer the-apps-own");
        assertThat(server.getRequestCount()).isEqualTo(1);
        assertThat(tokens.requests()).isZero();
        // The adapter reports what it saw on the wire; the policy names the reason on the span.
        assertThat(telemetry.decisions).containsExactly("RETURN app_authorization");
    }
}
