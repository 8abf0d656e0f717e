package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.TestWardens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.PushPromise;
import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** HTTP/2 over TLS with server push, and an interrupted wait, on a real client and real time. */
class Http2AndInterruptTest {
    private final MockWebServer server = new MockWebServer();
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();

    @AfterEach
    void stop() {
        server.close();
    }

    private Warden warden(String initialDelay) {
        return TestWardens.warden(
                TestWardens.config(
                        "apiwarden.base-url",
                        server.url("/api").toString(),
                        "apiwarden.access-token",
                        "access-0",
                        "apiwarden.refresh-token",
                        "refresh-0",
                        "apiwarden.token-url",
                        server.url("/token").toString(),
                        "apiwarden.backoff.initial-delay",
                        initialDelay),
                tokens,
                new SystemDelayScheduler(),
                Clock.systemUTC());
    }

    @Test
    void http2CallsAreManagedAndPushedResponsesReachTheApp() throws Exception {
        HeldCertificate cert = new HeldCertificate.Builder()
                .addSubjectAlternativeName("localhost")
                .addSubjectAlternativeName(
                        java.net.InetAddress.getByName("localhost").getCanonicalHostName())
                .build();
        HandshakeCertificates serverCerts =
                new HandshakeCertificates.Builder().heldCertificate(cert).build();
        HandshakeCertificates clientCerts = new HandshakeCertificates.Builder()
                .addTrustedCertificate(cert.certificate())
                .build();
        server.useHttps(serverCerts.sslSocketFactory());
        server.setProtocols(List.of(Protocol.HTTP_2, Protocol.HTTP_1_1));
        server.start(0);
        server.enqueue(new MockResponse.Builder().code(401).body("expired").build());
        // MockWebServer leaves out the :scheme pseudo-header that the JDK requires of a push promise.
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("user")
                .addPush(new PushPromise(
                        "GET",
                        "/api/avatar",
                        Headers.of(":scheme", "https"),
                        new MockResponse.Builder().body("avatar").build()))
                .build());
        HttpClient client = WardenHttpClient.wrap(
                HttpClient.newBuilder().sslContext(clientCerts.sslContext()).build(), warden("2s"));
        Map<String, CompletableFuture<HttpResponse<String>>> pushed = new ConcurrentHashMap<>();
        HttpResponse.PushPromiseHandler<String> push = (initiating, pushRequest, accept) ->
                pushed.put(pushRequest.uri().getPath(), accept.apply(BodyHandlers.ofString()));

        HttpResponse<String> response = client.sendAsync(
                        HttpRequest.newBuilder(server.url("/api/user").uri()).build(), BodyHandlers.ofString(), push)
                .get(10, TimeUnit.SECONDS);

        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.body()).isEqualTo("user");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-0");
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer access-1");
        assertThat(pushed.get("/api/avatar").get(10, TimeUnit.SECONDS).body()).isEqualTo("avatar");
    }

    @Test
    void theAppsContinuationsNeverRunOnTheAgentsTimerThread() throws Exception {
        server.start(0);
        server.enqueue(new MockResponse.Builder().code(429).build());
        server.enqueue(new MockResponse.Builder().code(200).body("ok").build());
        HttpClient client = WardenHttpClient.wrap(HttpClient.newHttpClient(), warden("10ms"));

        String thread = client.sendAsync(
                        HttpRequest.newBuilder(server.url("/api/user").uri()).build(), BodyHandlers.ofString())
                .thenApply(r -> Thread.currentThread().getName())
                .get(10, TimeUnit.SECONDS);

        assertThat(thread).doesNotStartWith("apiwarden");
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void sendStaysInterruptibleWhileItWaitsOutARateLimit() throws Exception {
        server.start(0);
        server.enqueue(new MockResponse.Builder().code(429).build());
        HttpClient client = WardenHttpClient.wrap(HttpClient.newHttpClient(), warden("5m"));
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                client.send(
                        HttpRequest.newBuilder(server.url("/api/user").uri()).build(), BodyHandlers.ofString());
                outcome.complete(null);
            } catch (Throwable t) {
                outcome.complete(t);
            }
        });
        caller.start();
        server.takeRequest(10, TimeUnit.SECONDS);

        caller.interrupt();

        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        assertThat(server.getRequestCount()).isEqualTo(1);
    }
}
