package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.Warden;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import io.apiwarden.testing.TestWardens;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code HttpRequest.timeout()} bounds the whole managed call, waits and resends included. */
class AppTimeLimitTest {
    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final FakeTokenEndpoint tokens = new FakeTokenEndpoint();

    @BeforeEach
    void start() throws Exception {
        server.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpClient managed(Clock time, io.apiwarden.core.time.DelayScheduler waits, String... tokenProps) {
        String[] props = new String[4 + tokenProps.length];
        props[0] = "apiwarden.base-url";
        props[1] = server.url("/api/v1").toString();
        props[2] = "apiwarden.token-url";
        props[3] = server.url("/auth/token").toString();
        System.arraycopy(tokenProps, 0, props, 4, tokenProps.length);
        Warden warden = TestWardens.warden(TestWardens.config(props), tokens, waits, time);
        return WardenHttpClient.wrap(HttpClient.newHttpClient(), warden);
    }

    private HttpRequest get(Duration timeout) {
        return HttpRequest.newBuilder(server.url("/api/v1/user").uri())
                .timeout(timeout)
                .build();
    }

    private void rateLimitedFor(int responses) {
        for (int i = 0; i < responses; i++) {
            server.enqueue(new MockResponse.Builder()
                    .code(429)
                    .body("API rate limit exceeded (global) #" + i)
                    .build());
        }
    }

    @Test
    void sendHandsOverTheRateLimitOnceTheNextWaitWouldOutliveTheTimeout() throws Exception {
        rateLimitedFor(6);
        HttpClient client = managed(clock, scheduler, "apiwarden.access-token", "access-0");

        HttpResponse<String> response = client.send(get(Duration.ofSeconds(7)), BodyHandlers.ofString());

        // Waits of 2 s and 4 s fit in 7 s; the third (8 s) would not.
        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(response.body()).isEqualTo("API rate limit exceeded (global) #2");
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertThat(server.getRequestCount()).isEqualTo(3);
    }

    @Test
    void sendAsyncHandsOverTheRateLimitOnceTheNextWaitWouldOutliveTheTimeout() throws Exception {
        rateLimitedFor(6);
        HttpClient client = managed(clock, scheduler, "apiwarden.access-token", "access-0");

        HttpResponse<String> response = client.sendAsync(get(Duration.ofSeconds(3)), BodyHandlers.ofString())
                .get(10, TimeUnit.SECONDS);

        assertThat(response.statusCode()).isEqualTo(429);
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(2));
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void eachResendGetsOnlyWhatIsLeftOfTheTimeout() throws Exception {
        rateLimitedFor(1);
        server.enqueue(new MockResponse.Builder()
                .code(200)
                .body("user")
                .headersDelay(700, TimeUnit.MILLISECONDS)
                .build());
        // Real time: the resend starts 0.5 s into a 1 s limit, so it has under 0.5 s, and the server
        // takes 0.7 s. Given the whole second again, as before, it would have succeeded.
        HttpClient client = managed(
                Clock.systemUTC(),
                new SystemDelayScheduler(),
                "apiwarden.access-token",
                "access-0",
                "apiwarden.backoff.initial-delay",
                "500ms");

        assertThatThrownBy(() -> client.send(get(Duration.ofSeconds(1)), BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void aHungTokenEndpointHandsTheAppTheApisAnswerAtItsTimeout() throws Exception {
        tokens.holding();
        server.enqueue(new MockResponse.Builder().code(401).body("expired").build());
        HttpClient client = managed(
                Clock.systemUTC(),
                new SystemDelayScheduler(),
                "apiwarden.access-token",
                "access-0",
                "apiwarden.refresh-token",
                "refresh-0");

        HttpResponse<String> sent = client.send(get(Duration.ofMillis(300)), BodyHandlers.ofString());

        assertThat(sent.statusCode()).isEqualTo(401);
        assertThat(sent.body()).isEqualTo("expired");
        assertThat(tokens.requests()).isEqualTo(1);
        tokens.release();
    }

    @Test
    void aHungTokenEndpointHandsTheAsyncAppTheApisAnswerAtItsTimeout() throws Exception {
        tokens.holding();
        server.enqueue(new MockResponse.Builder().code(401).body("expired").build());
        HttpClient client = managed(
                Clock.systemUTC(),
                new SystemDelayScheduler(),
                "apiwarden.access-token",
                "access-0",
                "apiwarden.refresh-token",
                "refresh-0");

        HttpResponse<String> sent = client.sendAsync(get(Duration.ofMillis(300)), BodyHandlers.ofString())
                .get(10, TimeUnit.SECONDS);

        assertThat(sent.statusCode()).isEqualTo(401);
        tokens.release();
    }

    @Test
    void withNoTokenInTimeTheCallTimesOutAsTheJdkWould() {
        tokens.holding();
        HttpClient client =
                managed(Clock.systemUTC(), new SystemDelayScheduler(), "apiwarden.refresh-token", "refresh-0");

        assertThatThrownBy(() -> client.send(get(Duration.ofMillis(300)), BodyHandlers.ofString()))
                .isInstanceOf(HttpTimeoutException.class);
        assertThatThrownBy(() -> client.sendAsync(get(Duration.ofMillis(300)), BodyHandlers.ofString())
                        .get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(HttpTimeoutException.class);
        assertThat(server.getRequestCount())
                .as("nothing was sent: the limit ran out first")
                .isZero();
        tokens.release();
    }
}
