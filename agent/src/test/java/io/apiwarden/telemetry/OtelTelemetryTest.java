package io.apiwarden.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.backoff.BackoffPolicy;
import io.apiwarden.core.call.BodyReplay;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.call.ResendPolicy;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.GuardedTelemetry;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Telemetry;
import io.apiwarden.testing.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the spans and meters say of the global rate limit: the headers read, and the throttled gauge. */
class OtelTelemetryTest {
    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    private final List<SpanData> spans = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider tracing = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(new Collecting(spans)))
            .build();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final MutableClock clock = new MutableClock(NOW);
    private final OtelTelemetry telemetry =
            new OtelTelemetry(tracing.get("test"), meters, List.of("X-Request-Id"), clock);

    @AfterEach
    void close() {
        tracing.close();
    }

    @Test
    void theAttemptSpanCarriesTheRateLimitHeadersTheAgentRead() {
        Map<String, List<String>> headers = Map.of(
                "retry-after", List.of("2"),
                "ratelimit", List.of("\"global\";r=0;t=2"),
                "ratelimit-policy", List.of("\"global\";q=100;w=60"));

        CallObserver call = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        AttemptObserver attempt = call.attempt(false);
        attempt.response(
                429,
                "HTTP/1.1",
                name -> headers.getOrDefault(name.toLowerCase(java.util.Locale.ROOT), List.of()),
                Verdict.GLOBAL_RATE_LIMIT);
        attempt.decided(Decision.returnToApp(), "2");
        call.end(429, Verdict.GLOBAL_RATE_LIMIT, null);

        SpanData attemptSpan = spans.stream()
                .filter(s -> s.getParentSpanContext().isValid())
                .findFirst()
                .orElseThrow();
        assertThat(attemptSpan.getAttributes().get(AttributeKey.stringKey("apiwarden.ratelimit.headers")))
                .isEqualTo("ratelimit");
        assertThat(attemptSpan.getAttributes().get(AttributeKey.longKey("apiwarden.ratelimit.limit")))
                .isEqualTo(100L);
        assertThat(attemptSpan.getAttributes().get(AttributeKey.longKey("apiwarden.ratelimit.remaining")))
                .isZero();
        assertThat(attemptSpan.getAttributes().get(AttributeKey.longKey("apiwarden.ratelimit.reset_ms")))
                .isEqualTo(2000L);
        assertThat(attemptSpan.getAttributes().get(AttributeKey.longKey("apiwarden.ratelimit.retry_after_ms")))
                .isEqualTo(2000L);
    }

    @Test
    void theCallSpanSaysHowTheTokenIsSentBearerUnlessToldDpop() {
        telemetry
                .call("GET", "https://api.example.com/v1/a", "api.example.com", 443)
                .end(200, Verdict.SUCCESS, null);
        CallObserver dpop = telemetry.call("GET", "https://api.example.com/v1/b", "api.example.com", 443);
        dpop.tokenScheme("DPoP");
        dpop.end(200, Verdict.SUCCESS, null);

        assertThat(spans)
                .extracting(s -> s.getAttributes().get(AttributeKey.stringKey("apiwarden.token.scheme")))
                .containsExactly("Bearer", "DPoP");
    }

    @Test
    void anAnswerWithoutRateLimitHeadersAddsNoneOfTheAttributes() {
        CallObserver call = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        AttemptObserver attempt = call.attempt(false);
        attempt.response(200, "HTTP/1.1", name -> List.of(), Verdict.SUCCESS);
        attempt.decided(Decision.returnToApp(), null);
        call.end(200, Verdict.SUCCESS, null);

        assertThat(spans).hasSize(2).allSatisfy(s -> assertThat(
                        s.getAttributes().asMap().keySet())
                .noneMatch(k -> k.getKey().startsWith("apiwarden.ratelimit.")));
    }

    @Test
    void aRefusalFromOutsideTheApiAfterARedirectSaysOnTheAttemptSpanWhyItWasNotResent() {
        ResendPolicy policy =
                new ResendPolicy(new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5)), clock);
        Decision d = policy.decide(
                new CallState(),
                Verdict.INVALID_TOKEN,
                null,
                BodyReplay.REPEATABLE,
                true,
                true,
                OnTheWire.LEFT_THE_API);

        CallObserver call = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        AttemptObserver attempt = call.attempt(false);
        attempt.response(401, "HTTP/1.1", name -> List.of(), Verdict.INVALID_TOKEN);
        attempt.decided(d, null);
        call.end(401, Verdict.INVALID_TOKEN, null);

        SpanData attemptSpan = spans.stream()
                .filter(s -> s.getParentSpanContext().isValid())
                .findFirst()
                .orElseThrow();
        assertThat(attemptSpan.getAttributes().get(AttributeKey.stringKey("apiwarden.not_resent_reason")))
                .isEqualTo("left_the_api");
        assertThat(d.fromOutsideTheApi()).as("the gate learns nothing from it").isTrue();
    }

    @Test
    void aWindowHeardFromTheFleetShowsInTheThrottledGaugeUntilItEnds() {
        assertThat(throttled()).isZero();

        telemetry.fleetWindowHeard(Duration.ofSeconds(3));

        assertThat(throttled()).isEqualTo(1);
        clock.advance(Duration.ofMillis(2999));
        assertThat(throttled()).isEqualTo(1);
        clock.advance(Duration.ofMillis(1));
        assertThat(throttled()).isZero();
    }

    @Test
    void aShorterWindowHeardLaterDoesNotEndALongerOne() {
        CallObserver call = telemetry.call("GET", "https://api.example.com/v1/user", "api.example.com", 443);
        call.gateClosed(Duration.ofSeconds(10));

        telemetry.fleetWindowHeard(Duration.ofSeconds(1));
        clock.advance(Duration.ofSeconds(5));

        assertThat(throttled()).isEqualTo(1);
    }

    @Test
    void aRefreshThroughTheGuardNamesItsGrantAndKeepsItsStoreEvents() {
        Telemetry guarded = GuardedTelemetry.of(telemetry);

        RefreshObserver refresh = guarded.refresh(URI.create("https://auth.example.com/token"), "client_credentials");
        refresh.event("adopted");
        refresh.end("adopted");

        assertThat(spans).singleElement().satisfies(s -> assertThat(
                        s.getAttributes().get(AttributeKey.stringKey("apiwarden.grant")))
                .isEqualTo("client_credentials"));
        assertThat(meters.get("apiwarden.token.store.events")
                        .tag("event", "adopted")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    private double throttled() {
        return meters.get("apiwarden.throttled").gauge().value();
    }

    /** Keeps every span exported; for the tests of this package. */
    static final class Collecting implements SpanExporter {
        private final List<SpanData> into;

        Collecting(List<SpanData> into) {
            this.into = into;
        }

        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
            into.addAll(batch);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
