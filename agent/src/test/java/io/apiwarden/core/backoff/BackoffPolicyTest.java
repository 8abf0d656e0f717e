package io.apiwarden.core.backoff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackoffPolicyTest {
    private final BackoffPolicy spec = new BackoffPolicy(Duration.ofSeconds(2), 5, Duration.ofMinutes(5));

    @Test
    void retryIWaitsTwoToThePowerISeconds() {
        for (int i = 1; i <= 5; i++) {
            assertThat(spec.delayBefore(i, Optional.empty())).isEqualTo(Duration.ofSeconds(1L << i));
        }
        assertThatThrownBy(() -> spec.delayBefore(6, Optional.empty())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLongerRetryAfterWinsAShorterOneDoesNotAndTheCapHolds() {
        assertThat(spec.delayBefore(1, Optional.of(Duration.ofSeconds(30)))).isEqualTo(Duration.ofSeconds(30));
        assertThat(spec.delayBefore(3, Optional.of(Duration.ofSeconds(1)))).isEqualTo(Duration.ofSeconds(8));
        assertThat(spec.delayBefore(1, Optional.of(Duration.ofHours(2)))).isEqualTo(Duration.ofMinutes(5));
        BackoffPolicy capped = new BackoffPolicy(Duration.ofSeconds(2), 10, Duration.ofSeconds(20));
        assertThat(capped.delayBefore(10, Optional.empty())).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void retryAfterReadsSecondsAndHttpDates() {
        Instant now = Instant.parse("2026-11-22T10:00:00Z");

        assertThat(RetryAfter.parse("120", now)).contains(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse("Sun, 22 Nov 2026 10:00:45 GMT", now)).contains(Duration.ofSeconds(45));
        assertThat(RetryAfter.parse("Sun, 22 Nov 2026 09:00:00 GMT", now)).contains(Duration.ZERO);
        assertThat(RetryAfter.parse("soon", now)).isEmpty();
        assertThat(RetryAfter.parse("99999999999999", now)).isEmpty();
        assertThat(RetryAfter.parse(null, now)).isEmpty();
    }
}
