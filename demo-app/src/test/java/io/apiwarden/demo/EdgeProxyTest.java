package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EdgeProxyTest {
    private final MutableClock clock = new MutableClock();
    private SimulatedApi api;
    private ApiTestClient client;

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void failsEveryKthRequestWith502And504InTurn() throws IOException {
        start(SimulatedApi.Settings.builder().proxyFailEvery(3));
        String token = client.newAccessToken();

        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            statuses.add(client.getUser(token).statusCode());
        }

        assertThat(statuses).containsExactly(200, 200, 502, 200, 200, 504, 200, 200, 502);
        assertThat(api.counters().proxyErrors()).isEqualTo(3);
        assertThat(api.counters().apiRequests()).isEqualTo(9);
    }

    @Test
    void proxyErrorNamesTheProxyInDiagnosticHeadersWithAnHtmlPage() throws IOException {
        start(SimulatedApi.Settings.builder().proxyFailEvery(1));

        HttpResponse<String> response = client.get("/user", null);

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("Via")).hasValue("1.1 simulated-edge");
        assertThat(response.headers().firstValue("Server")).hasValue("simulated-proxy");
        assertThat(response.headers().firstValue("X-Cache")).hasValue("MISS from simulated-edge");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(response.headers().firstValue("X-Request-Id")).isPresent();
        assertThat(response.headers().firstValue("X-RateLimit-Limit"))
                .as("the API never saw it")
                .isEmpty();
        assertThat(response.body()).contains("<h1>502 Bad Gateway</h1>").doesNotContain("OAuth", "rate limit");
    }

    @Test
    void requestsTheProxyFailsDoNotReachTheRateLimit() throws IOException {
        start(SimulatedApi.Settings.builder().proxyFailEvery(2).rateLimit(2, Duration.ofMinutes(1)));
        String token = client.newAccessToken();

        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            statuses.add(client.getUser(token).statusCode());
        }

        assertThat(statuses).containsExactly(200, 502, 200, 504);
        assertThat(api.counters().rateLimited()).isZero();
    }

    @Test
    void probabilityOneFailsEveryRequestAndZeroNone() throws IOException {
        start(SimulatedApi.Settings.builder().proxyFailureProbability(1.0));
        for (int i = 0; i < 4; i++) {
            assertThat(client.headBase().statusCode()).isIn(502, 504);
        }
        api.close();

        start(SimulatedApi.Settings.builder().proxyFailureProbability(0.0));
        for (int i = 0; i < 4; i++) {
            assertThat(client.headBase().statusCode()).isEqualTo(200);
        }
    }

    private void start(SimulatedApi.Settings.Builder settings) throws IOException {
        api = new SimulatedApi(settings.build(), clock).start();
        client = new ApiTestClient(api);
    }
}
