package io.apiwarden.clients.reactornetty.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.http.client.ConnectAccess;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;

/**
 * A body function whose body can be written once only (as Spring's around an {@code InputStreamResource}),
 * recorded by the first attempt and replayed on the resend after a refresh, against a real local server.
 * Spring's own functions are recognised by their class (see the Spring Boot test); here every function
 * is recorded, or none.
 */
class RecordedBodyFunctionTest {
    private static final Duration LONG_ENOUGH = Duration.ofSeconds(10);
    private static final String BODY = "{\"name\":\"x\"}";

    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();
    private final ConnectionProvider pool = ConnectionProvider.create("recorded-body-test", 4);
    /** How often the app's body publisher was subscribed: a one-shot body fails from the second time on. */
    private final AtomicInteger bodySubscriptions = new AtomicInteger();

    private final AtomicInteger functionCalls = new AtomicInteger();
    private HttpClient client;

    @BeforeEach
    void start() throws Exception {
        server.start(0);
        client = HttpClient.create(pool).observe(AttemptHeadersObserver.INSTANCE);
        server.enqueue(new MockResponse.Builder()
                .code(401)
                .body("{\"message\":\"OAuth invalid token\"}")
                .build());
        server.enqueue(new MockResponse.Builder().code(201).body("made").build());
    }

    @AfterEach
    void stop() {
        pool.disposeLater().block(LONG_ENOUGH);
        server.close();
    }

    private ReactorNettyGlue glue(boolean recordEveryBody, String... moreConfig) {
        String[] config = {
            "apiwarden.base-url",
            server.url("/api/v1").toString(),
            "apiwarden.access-token",
            "access-0",
            "apiwarden.refresh-token",
            "refresh-0",
            "apiwarden.token-url",
            server.url("/auth/token").toString()
        };
        String[] all = java.util.Arrays.copyOf(config, config.length + moreConfig.length);
        System.arraycopy(moreConfig, 0, all, config.length, moreConfig.length);
        Warden warden = TestWardens.warden(TestWardens.config(all), tokens, FakeTimer.onTestTime(clock), clock);
        return new ReactorNettyGlue(warden, FakeTimer.onTestTime(clock), Runnable::run, body -> recordEveryBody);
    }

    /** Sets its content type, as Spring's functions set the request's headers, then sends the body. */
    private HttpClient post(java.util.function.Supplier<org.reactivestreams.Publisher<ByteBuf>> body) {
        return (HttpClient)
                client.post().uri(server.url("/api/v1/items").toString()).send((req, out) -> {
                    functionCalls.incrementAndGet();
                    req.header("Content-Type", "application/json");
                    return out.send(body.get());
                });
    }

    /** Two pieces the first time it is subscribed; an error after that, as a stream already read. */
    private Flux<ByteBuf> oneShotFlux() {
        return Flux.defer(() -> bodySubscriptions.incrementAndGet() == 1
                ? Flux.just(buffer(BODY.substring(0, 5)), buffer(BODY.substring(5)))
                : Flux.error(new IllegalStateException("the stream was read already")));
    }

    private Mono<ByteBuf> oneShotMono() {
        return Mono.defer(() -> bodySubscriptions.incrementAndGet() == 1
                ? Mono.just(buffer(BODY))
                : Mono.error(new IllegalStateException("the stream was read already")));
    }

    private static ByteBuf buffer(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }

    private String statusAndBody(ReactorNettyGlue glue, HttpClient request) {
        Mono<? extends Connection> connect = glue.manage(request, ConnectAccess.connect(request));
        return connect.flatMap(c -> c.inbound()
                        .receive()
                        .aggregate()
                        .asString()
                        .defaultIfEmpty("")
                        .map(text -> ((HttpClientResponse) c).status().code() + " " + text))
                .block(LONG_ENOUGH);
    }

    @Test
    void aOneShotBodyIsRecordedAndTheResendSendsTheRecording() throws Exception {
        String got = statusAndBody(glue(true), post(this::oneShotFlux));

        assertThat(got).isEqualTo("201 made");
        RecordedRequest first = server.takeRequest();
        RecordedRequest second = server.takeRequest();
        assertThat(second.getBody().utf8()).isEqualTo(first.getBody().utf8()).isEqualTo(BODY);
        assertThat(second.getHeaders().get("Authorization")).isEqualTo("Bearer access-1");
        // The function ran again and set its headers; the body it handed over was not read again.
        assertThat(second.getHeaders().get("Content-Type")).isEqualTo("application/json");
        assertThat(second.getHeaders().get("Transfer-Encoding"))
                .isEqualTo(first.getHeaders().get("Transfer-Encoding"))
                .isEqualTo("chunked");
        assertThat(functionCalls).hasValue(2);
        assertThat(bodySubscriptions).hasValue(1);
        assertThat(tokens.requests()).isEqualTo(1);
    }

    @Test
    void aOneShotMonoIsReplayedAsOneMessageWithItsLength() throws Exception {
        String got = statusAndBody(glue(true), post(this::oneShotMono));

        assertThat(got).isEqualTo("201 made");
        RecordedRequest first = server.takeRequest();
        RecordedRequest second = server.takeRequest();
        assertThat(second.getBody().utf8()).isEqualTo(BODY);
        assertThat(second.getHeaders().get("Content-Length"))
                .isEqualTo(first.getHeaders().get("Content-Length"))
                .isEqualTo(String.valueOf(BODY.length()));
        // The resend subscribes to the function's new Mono only to release a buffer it may hold; a stream read
        // already fails there, out of the request's way.
        assertThat(bodySubscriptions).hasValue(2);
    }

    @Test
    void aBufferTheFunctionEncodedBeforeHandingItOverGoesBackToThePoolOnTheResend() throws Exception {
        // Spring's bodyValue: the value is encoded into a buffer first (from out.alloc()), then handed over in a
        // Mono. Here from an allocator that never recycles its buffers, so that a count of 0 is this buffer's own:
        // a pooled one, freed, may be handed out again and counted for its next user.
        java.util.List<ByteBuf> encoded = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpClient request = (HttpClient)
                client.post().uri(server.url("/api/v1/items").toString()).send((req, out) -> {
                    ByteBuf body = io.netty.buffer.UnpooledByteBufAllocator.DEFAULT
                            .directBuffer()
                            .writeBytes(BODY.getBytes(StandardCharsets.UTF_8));
                    encoded.add(body);
                    return out.send(Mono.just(body));
                });

        String got = statusAndBody(glue(true), request);

        assertThat(got).isEqualTo("201 made");
        server.takeRequest();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo(BODY);
        assertThat(encoded)
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.refCnt()).as("released").isZero());
    }

    @Test
    void theResendReleasesTheFunctionsBufferExactlyOnce() throws Exception {
        // Held once more by the test: a buffer released once ends at 1, one released twice at 0. Released twice with
        // nothing held, the second release fails in Reactor Netty's discard hook, which logs it with its stack trace.
        java.util.List<ByteBuf> encoded = new java.util.concurrent.CopyOnWriteArrayList<>();
        HttpClient request = (HttpClient)
                client.post().uri(server.url("/api/v1/items").toString()).send((req, out) -> {
                    ByteBuf body = io.netty.buffer.UnpooledByteBufAllocator.DEFAULT
                            .directBuffer()
                            .writeBytes(BODY.getBytes(StandardCharsets.UTF_8))
                            .retain();
                    encoded.add(body);
                    return out.send(Mono.just(body));
                });

        String got = statusAndBody(glue(true), request);

        assertThat(got).isEqualTo("201 made");
        server.takeRequest();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo(BODY);
        assertThat(encoded)
                .hasSize(2)
                .allSatisfy(b -> assertThat(b.refCnt()).as("released once").isEqualTo(1));
        encoded.forEach(ByteBuf::release);
    }

    @Test
    void aFunctionThatIsNotRecordedWritesItsBodyAgain() throws Exception {
        String got = statusAndBody(
                glue(false),
                post(() -> Mono.fromSupplier(() -> {
                    bodySubscriptions.incrementAndGet();
                    return buffer(BODY);
                })));

        assertThat(got).isEqualTo("201 made");
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo(BODY);
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo(BODY);
        assertThat(bodySubscriptions).hasValue(2);
    }

    @Test
    void aBodyOverTheBoundIsWrittenAgainByTheFunctionAsWithoutTheRecording() throws Exception {
        String got = statusAndBody(
                glue(true, "apiwarden.resend.max-recorded-body", "4"),
                post(() -> Flux.defer(() -> {
                    bodySubscriptions.incrementAndGet();
                    return Flux.just(buffer(BODY));
                })));

        assertThat(got).isEqualTo("201 made");
        server.takeRequest();
        assertThat(server.takeRequest().getBody().utf8()).isEqualTo(BODY);
        assertThat(bodySubscriptions).hasValue(2);
    }

    @Test
    void recordingSwitchedOffLeavesTheFunctionAsItIs() throws Exception {
        String got = statusAndBody(
                glue(true, "apiwarden.resend.max-recorded-body", "0"),
                post(() -> Flux.defer(() -> {
                    bodySubscriptions.incrementAndGet();
                    return Flux.just(buffer(BODY));
                })));

        assertThat(got).isEqualTo("201 made");
        assertThat(bodySubscriptions).hasValue(2);
    }
}
