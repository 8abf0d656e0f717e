package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SettingsTest {

    @Test
    void defaultsAreTheNamedConstants() {
        SimulatedApi.Settings settings = SimulatedApi.Settings.builder().build();

        assertThat(settings.tokenLifetime()).isEqualTo(SimulatedApi.Settings.DEFAULT_TOKEN_LIFETIME);
        assertThat(settings.rateLimit()).isEqualTo(SimulatedApi.Settings.DEFAULT_RATE_LIMIT);
        assertThat(settings.rateLimitWindow()).isEqualTo(SimulatedApi.Settings.DEFAULT_RATE_LIMIT_WINDOW);
        assertThat(settings.throttlePeriod()).isEqualTo(SimulatedApi.Settings.DEFAULT_THROTTLE_PERIOD);
        assertThat(settings.proxyFailureProbability()).isZero();
        assertThat(settings.proxyFailEvery()).isZero();
        assertThat(settings.serverThreads()).isEqualTo(SimulatedApi.Settings.DEFAULT_SERVER_THREADS);
        assertThat(settings)
                .hasToString("token lifetime 5000 ms, global limit 60 requests per 60000 ms,"
                        + " throttle 10000 ms, no proxy faults");
    }

    @Test
    void builderKeepsWhatItIsGiven() {
        SimulatedApi.Settings settings = SimulatedApi.Settings.builder()
                .tokenLifetime(Duration.ofSeconds(2))
                .rateLimit(5, Duration.ofSeconds(3))
                .throttlePeriod(Duration.ofSeconds(4))
                .proxyFailureProbability(0.25)
                .proxyFailEvery(7)
                .serverThreads(2)
                .build();

        assertThat(settings.tokenLifetime()).isEqualTo(Duration.ofSeconds(2));
        assertThat(settings.rateLimit()).isEqualTo(5);
        assertThat(settings.rateLimitWindow()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.throttlePeriod()).isEqualTo(Duration.ofSeconds(4));
        assertThat(settings.proxyFailureProbability()).isEqualTo(0.25);
        assertThat(settings.proxyFailEvery()).isEqualTo(7);
        assertThat(settings.serverThreads()).isEqualTo(2);
    }

    @Test
    void buildNamesEverySettingThatIsOutOfRange() {
        SimulatedApi.Settings.Builder builder = SimulatedApi.Settings.builder()
                .tokenLifetime(Duration.ofMillis(500))
                .rateLimit(0, Duration.ZERO)
                .throttlePeriod(Duration.ofSeconds(-1))
                .proxyFailureProbability(1.5)
                .proxyFailEvery(-2)
                .serverThreads(0);

        assertThatThrownBy(builder::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContainingAll(
                        "tokenLifetime must be at least 1 s",
                        "rateLimit must allow",
                        "rateLimitWindow must be positive",
                        "throttlePeriod must be positive",
                        "proxyFailureProbability must be from 0 to 1",
                        "proxyFailEvery must be 0",
                        "serverThreads must be at least 1");
    }

    @Test
    void notANumberIsNotAProbability() {
        assertThatThrownBy(() -> SimulatedApi.Settings.builder()
                        .proxyFailureProbability(Double.NaN)
                        .build())
                .hasMessageContaining("proxyFailureProbability");
    }
}
