package io.apiwarden.demo;

import static io.apiwarden.demo.ApiTestClient.jsonString;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class GlobalRateLimitTest {
    private static final int LIMIT = 3;
    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static final Duration THROTTLE = Duration.ofSeconds(5);

    private final MutableClock clock = new MutableClock();
    private SimulatedApi api;
    private ApiTestClient client;
    private String token;

    @BeforeEach
    void start() throws IOException {
        api = new SimulatedApi(
                        SimulatedApi.Settings.builder()
                                .tokenLifetime(Duration.ofHours(1))
                                .rateLimit(LIMIT, WINDOW)
                                .throttlePeriod(THROTTLE)
                                .build(),
                        clock)
                .start();
        client = new ApiTestClient(api);
        token = client.newAccessToken();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void headOnBaseShowsLimitRemainingAndSecondsUntilReset() {
        HttpResponse<String> first = client.headBase();
        clock.advance(Duration.ofMillis(2500));
        HttpResponse<String> second = client.headBase();

        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.body()).isEmpty();
        assertThat(first.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
        assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
        assertThat(first.headers().firstValue("X-RateLimit-Reset")).hasValue("10");
        assertThat(second.headers().firstValue("X-RateLimit-Remaining")).hasValue("1");
        assertThat(second.headers().firstValue("X-RateLimit-Reset"))
                .as("7.5 s rounded up")
                .hasValue("8");
    }

    @Test
    void requestOverTheLimitIsThrottledWithRetryAfter() {
        for (int i = 0; i < LIMIT; i++) {
            assertThat(client.getUser(token).statusCode()).isEqualTo(200);
        }

        HttpResponse<String> over = client.getUser(token);

        assertThat(over.statusCode()).isEqualTo(429);
        assertThat(jsonString(over.body(), "message")).isEqualTo("API rate limit exceeded (global)");
        assertThat(over.headers().firstValue("Retry-After")).hasValue("5");
        assertThat(over.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
        assertThat(api.counters().rateLimited()).isEqualTo(1);
    }

    @Test
    void throttlingAppliesToEveryEndpointAndCaller() {
        exhaustLimit();

        assertThat(client.headBase().statusCode()).isEqualTo(429);
        assertThat(client.get("/user", null).statusCode())
                .as("even before authentication")
                .isEqualTo(429);
        assertThat(client.getUser(client.newAccessToken()).statusCode())
                .as("another caller's token")
                .isEqualTo(429);
        assertThat(client.get("/nothing", null).statusCode()).isEqualTo(429);
    }

    @Test
    void retryAfterCountsDownRoundedUpAndThrottlingEndsWithAFreshWindow() {
        exhaustLimit();
        clock.advance(THROTTLE.minusMillis(500));

        HttpResponse<String> stillThrottled = client.getUser(token);
        assertThat(stillThrottled.statusCode()).isEqualTo(429);
        assertThat(stillThrottled.headers().firstValue("Retry-After"))
                .as("0.5 s rounded up")
                .hasValue("1");

        clock.advance(Duration.ofMillis(500));

        HttpResponse<String> afterThrottle = client.getUser(token);
        assertThat(afterThrottle.statusCode()).isEqualTo(200);
        assertThat(afterThrottle.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(LIMIT - 1));
    }

    @Test
    void requestsWithinTheLimitInEachWindowAreNeverThrottled() {
        for (int window = 0; window < 3; window++) {
            for (int i = 0; i < LIMIT; i++) {
                assertThat(client.getUser(token).statusCode()).isEqualTo(200);
            }
            clock.advance(WINDOW);
        }
        assertThat(api.counters().rateLimited()).isZero();
    }

    @Test
    void rejectedRequestsCountAgainstTheLimitToo() {
        client.get("/user", null);
        client.getUser("malformed");
        client.getUser(token);

        assertThat(client.getUser(token).statusCode()).isEqualTo(429);
    }

    private void exhaustLimit() {
        for (int i = 0; i <= LIMIT; i++) {
            client.getUser(token);
        }
        assertThat(api.counters().rateLimited()).isEqualTo(1);
    }
}
