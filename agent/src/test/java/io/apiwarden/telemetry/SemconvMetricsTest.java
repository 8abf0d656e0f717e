package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.testing.MutableClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.ConnectException;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The meters named by the semantic conventions, beside the agent's own: {@code http.client.request.duration} per
 * request, and the token refreshes by grant and result.
 */
class SemconvMetricsTest {
    private final PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final OtelTelemetry telemetry = new OtelTelemetry(
            null, meters, List.of(), new MutableClock(Instant.parse("2026-11-26T12:00:00Z")), "orders");

    @Test
    void eachRequestIsOneRecordOfTheStableHistogramWithTheConventionsTagsAndBuckets() {
        CallObserver call = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        answer(call.attempt(false), 404);
        call.attempt(false).failed(new ConnectException("refused"));
        answer(call.attempt(false), 200);
        answer(call.attempt(false), 200);

        Timer ok = request("200", "");
        assertThat(ok.count()).isEqualTo(2);
        assertThat(ok.getId().getTag("http.request.method")).isEqualTo("GET");
        assertThat(ok.getId().getTag("server.address")).isEqualTo("api.example.com");
        assertThat(ok.getId().getTag("server.port")).isEqualTo("443");
        assertThat(ok.getId().getTag("api")).isEqualTo("orders");
        assertThat(ok.getId().getBaseUnit()).isEqualTo("seconds");
        assertThat(Arrays.stream(ok.takeSnapshot().histogramCounts()).map(b -> b.bucket(TimeUnit.SECONDS)))
                .containsExactly(0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0);
        assertThat(request("404", "404").count()).isEqualTo(1);
        assertThat(request("", ConnectException.class.getName()).count()).isEqualTo(1);

        String scraped = meters.scrape();
        assertThat(scraped)
                .contains("http_client_request_duration_seconds_bucket{")
                .contains("le=\"0.005\"")
                .contains("le=\"10.0\"")
                .contains("error_type=\"404\"");
        assertThat(Arrays.stream(ok.takeSnapshot().histogramCounts())
                        .mapToDouble(CountAtBucket::count)
                        .max())
                .hasValue(2);
    }

    @Test
    void tokenRefreshesAreCountedByGrantAndResult() {
        telemetry
                .refresh(URI.create("https://auth.example.com/token"), "client_credentials")
                .end("success");
        telemetry
                .refresh(URI.create("https://auth.example.com/token"), "client_credentials")
                .end("refused");

        assertThat(meters.get("apiwarden.token.refreshes")
                        .tags("grant", "client_credentials", "result", "success")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(meters.get("apiwarden.token.refreshes")
                        .tags("grant", "client_credentials", "result", "refused")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void requestsThatTakeTurnsBetweenServersAndStatusesEachCountOnTheirOwnTimer() {
        // The last timer found is kept for the next request: one that differs in any tag must not land on it.
        CallObserver orders = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        CallObserver other = telemetry.call("GET", "https://api.example.com:8443/v1/user", "api.example.com", 8443);
        answer(orders.attempt(false), 200);
        answer(other.attempt(false), 200);
        answer(orders.attempt(false), 404);
        answer(orders.attempt(false), 200);

        assertThat(meters.get(HttpClientDurations.NAME)
                        .tags("server.port", "443", "http.response.status_code", "200")
                        .timer()
                        .count())
                .isEqualTo(2);
        assertThat(meters.get(HttpClientDurations.NAME)
                        .tags("server.port", "8443", "http.response.status_code", "200")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(request("404", "404").count()).isEqualTo(1);
    }

    private static void answer(AttemptObserver attempt, int status) {
        attempt.response(
                status,
                "HTTP/1.1",
                name -> Map.<String, List<String>>of().getOrDefault(name, List.of()),
                status == 200 ? Verdict.SUCCESS : Verdict.CLIENT_ERROR);
        attempt.decided(Decision.returnToApp(), null);
    }

    private Timer request(String status, String errorType) {
        return meters.get(HttpClientDurations.NAME)
                .tags("http.response.status_code", status, "error.type", errorType)
                .timer();
    }
}
