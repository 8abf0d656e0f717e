package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulatedApiTest {

    @Test
    void servesOnLoopbackWithTheSpecsUrlShapes() throws IOException {
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start()) {
            assertThat(api.port()).isPositive();
            assertThat(api.baseUrl()).hasToString("http://127.0.0.1:" + api.port() + "/api/v1");
            assertThat(api.authUrl()).hasToString("http://127.0.0.1:" + api.port() + "/auth");
            assertThat(api.tokenUrl()).hasToString(api.authUrl() + "/token");
        }
    }

    @Test
    void urlsBeforeStartAndASecondStartAreRefused() throws IOException {
        SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build());
        assertThatThrownBy(api::baseUrl)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("start()");

        try (SimulatedApi started = api.start()) {
            assertThatThrownBy(started::start)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("create a new one");
        }
    }

    @Test
    void everyResponseCarriesItsOwnRequestId() throws IOException {
        MutableClock clock = new MutableClock();
        SimulatedApi.Settings settings = SimulatedApi.Settings.builder()
                .rateLimit(3, Duration.ofMinutes(1))
                .build();
        try (SimulatedApi api = new SimulatedApi(settings, clock).start()) {
            ApiTestClient client = new ApiTestClient(api);
            String token = client.newAccessToken();
            List<HttpResponse<String>> responses = List.of(
                    client.requestToken("rt_wrong"),
                    client.getUser(token),
                    client.getUser("bad"),
                    client.headBase(),
                    client.getUser(token),
                    client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port() + "/elsewhere"))));

            assertThat(responses).extracting(HttpResponse::statusCode).containsExactly(400, 200, 401, 200, 429, 404);
            Set<String> ids = new HashSet<>();
            for (HttpResponse<String> response : responses) {
                String id = response.headers().firstValue("X-Request-Id").orElseThrow();
                assertThat(ids.add(id)).as("unique id %s", id).isTrue();
            }
        }
    }

    @Test
    void healthCheckLiesOutsideTheApiAndItsRateLimit() throws IOException {
        SimulatedApi.Settings settings = SimulatedApi.Settings.builder()
                .rateLimit(1, Duration.ofMinutes(1))
                .build();
        try (SimulatedApi api = new SimulatedApi(settings, new MutableClock()).start()) {
            ApiTestClient client = new ApiTestClient(api);
            client.headBase();
            assertThat(client.headBase().statusCode()).isEqualTo(429);

            HttpResponse<String> health = client.send(HttpRequest.newBuilder(api.healthUrl()));

            assertThat(api.healthUrl()).hasToString("http://127.0.0.1:" + api.port() + "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("ok");
            assertThat(api.counters().apiRequests()).isEqualTo(2);
        }
    }

    @Test
    void closeStopsServing() throws IOException {
        SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start();
        ApiTestClient client = new ApiTestClient(api);
        api.close();

        assertThatThrownBy(client::headBase).hasCauseInstanceOf(IOException.class);
    }
}
