package io.apiwarden.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RateLimitHeadersTest {
    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");

    private static RateLimitReading read(String... namesAndValues) {
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        Function<String, String> lookup = headers::get;
        return RateLimitHeaders.read(lookup, NOW);
    }

    @Test
    void noHeadersReadAsNothing() {
        RateLimitReading r = read();
        assertThat(r).isSameAs(RateLimitReading.NONE);
        assertThat(r.isEmpty()).isTrue();
        assertThat(r.exhaustedFor()).isEmpty();
    }

    @Test
    void retryAfterInSecondsAndAsADate() {
        assertThat(read("Retry-After", "3").retryAfter()).hasValue(Duration.ofSeconds(3));
        assertThat(read("Retry-After", "Mon, 23 Nov 2026 12:00:07 GMT").retryAfter())
                .hasValue(Duration.ofSeconds(7));
    }

    @Test
    void theDraftsStructuredFieldsTakeThePolicyWithTheFewestLeft() {
        RateLimitReading r = read(
                "RateLimit",
                "\"hour\";r=500;t=1800, \"burst\";r=0;t=4",
                "RateLimit-Policy",
                "\"hour\";q=1000;w=3600, \"burst\";q=10;w=5");

        assertThat(r.family()).hasValue("ratelimit");
        assertThat(r.remaining()).hasValue(0);
        assertThat(r.limit()).hasValue(10);
        assertThat(r.reset()).hasValue(Duration.ofSeconds(4));
        assertThat(r.exhaustedFor()).hasValue(Duration.ofSeconds(4));
    }

    @Test
    void theOlderDictionaryForm() {
        RateLimitReading r = read("RateLimit", "limit=100, remaining=0, reset=30");

        assertThat(r.family()).hasValue("ratelimit-dictionary");
        assertThat(r.limit()).hasValue(100);
        assertThat(r.exhaustedFor()).hasValue(Duration.ofSeconds(30));
    }

    @Test
    void theFirstDraftsSeparateHeaders() {
        RateLimitReading r = read("RateLimit-Limit", "60", "RateLimit-Remaining", "12", "RateLimit-Reset", "9");

        assertThat(r.family()).hasValue("ratelimit-legacy");
        assertThat(r.remaining()).hasValue(12);
        assertThat(r.reset()).hasValue(Duration.ofSeconds(9));
        assertThat(r.exhaustedFor()).as("requests remain").isEmpty();
    }

    @Test
    void xRateLimitResetIsDeltaSecondsBelowTenToTheNinthAndUnixTimeAbove() {
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "20").exhaustedFor())
                .hasValue(Duration.ofSeconds(20));
        long inTwelveSeconds = NOW.getEpochSecond() + 12;
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", Long.toString(inTwelveSeconds))
                        .exhaustedFor())
                .hasValue(Duration.ofSeconds(12));
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", Long.toString(NOW.toEpochMilli() + 1500))
                        .reset())
                .hasValue(Duration.ofMillis(1500));
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", Long.toString(NOW.getEpochSecond() - 5))
                        .reset())
                .as("a reset in the past is over")
                .hasValue(Duration.ZERO);
    }

    @Test
    void garbageIsIgnoredNeverThrown() {
        assertThat(read("X-RateLimit-Remaining", "-1", "X-RateLimit-Reset", "10")
                        .remaining())
                .isEmpty();
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "ten")
                        .exhaustedFor())
                .isEmpty();
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "99999999999999999999999")
                        .exhaustedFor())
                .isEmpty();
        assertThat(read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "172800")
                        .exhaustedFor())
                .as("two days is no rate-limit window")
                .isEmpty();
        assertThat(read("RateLimit", "\"a\";r=;t=3, ;;;=, \"unclosed;r=0;t=1").exhaustedFor())
                .isEmpty();
        assertThat(read("RateLimit", "x".repeat(5000)).isEmpty()).isTrue();
        assertThat(read("Retry-After", "soon").retryAfter()).isEmpty();
    }

    @Test
    void aResponseWithoutRateLimitHeadersCostsOnlyTheirLookUps() {
        java.util.List<String> asked = new java.util.ArrayList<>();
        Function<String, java.util.List<String>> none = name -> {
            asked.add(name);
            return java.util.List.of();
        };

        assertThat(RateLimitHeaders.readIfAny(none, NOW)).isNull();
        assertThat(RateLimitHeaders.exhaustion(none, java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC)))
                .isNull();
        assertThat(asked).hasSize(5 + 3);
        assertThat(RateLimitHeaders.exhaustion(
                        name -> name.equals("X-RateLimit-Remaining")
                                ? java.util.List.of("0")
                                : name.equals("X-RateLimit-Reset") ? java.util.List.of("4") : java.util.List.of(),
                        java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC)))
                .isEqualTo(Duration.ofSeconds(4));
        assertThat(RateLimitHeaders.readIfAny(
                                name -> name.equals("Retry-After") ? java.util.List.of("2") : java.util.List.of(), NOW)
                        .retryAfter())
                .hasValue(Duration.ofSeconds(2));
    }

    @Test
    void peopleAreToldWhichHeadersSaidWhat() {
        assertThat(read(
                                "X-RateLimit-Limit",
                                "100",
                                "X-RateLimit-Remaining",
                                "0",
                                "X-RateLimit-Reset",
                                "20",
                                "Retry-After",
                                "3")
                        .describe())
                .isEqualTo("X-RateLimit-*: limit 100, remaining 0, resets in 20 s; Retry-After 3 s");
        assertThat(read("RateLimit", "\"d\";r=5;t=2", "RateLimit-Policy", "\"d\";q=10;w=5")
                        .describe())
                .isEqualTo("RateLimit and RateLimit-Policy: limit 10, remaining 5, resets in 2 s");
        assertThat(read().describe()).startsWith("no rate-limit header the agent reads");
    }

    @Test
    void whatWasReadIsShownWithoutGuesses() {
        assertThat(read("Retry-After", "2", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "3"))
                .hasToString("RateLimitReading{retryAfter=2000ms x-ratelimit remaining=0 reset=3000ms}");
    }
}
