package io.apiwarden.core.throttle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.testing.MutableClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {
    private final MutableClock clock = MutableClock.atEpochDay();

    @Test
    void aQuietAppMayStillResendTheMinimum() {
        RetryBudget budget = new RetryBudget(clock, 0.2, 3);

        int allowed = 0;
        while (budget.tryResend()) {
            allowed++;
        }
        assertThat(allowed).as("3 a second over ten seconds").isEqualTo(30);
    }

    @Test
    void aBusyAppMayResendItsShareOfTheCallsOfTheLastTenSeconds() {
        RetryBudget budget = new RetryBudget(clock, 0.2, 1);
        for (int i = 0; i < 1000; i++) {
            budget.called();
        }

        int allowed = 0;
        while (budget.tryResend()) {
            allowed++;
        }
        assertThat(allowed).isEqualTo(200);
    }

    @Test
    void theBudgetComesBackAsTheWindowMovesOn() {
        RetryBudget budget = new RetryBudget(clock, 0.0, 1);
        for (int i = 0; i < 10; i++) {
            assertThat(budget.tryResend()).isTrue();
        }
        assertThat(budget.tryResend()).isFalse();

        clock.advance(Duration.ofSeconds(1));
        assertThat(budget.tryResend()).as("the oldest second left the window").isFalse();
        clock.advance(Duration.ofSeconds(9));
        assertThat(budget.tryResend()).isTrue();
    }

    @Test
    void callsOlderThanTheWindowNoLongerCount() {
        RetryBudget budget = new RetryBudget(clock, 0.5, 0);
        for (int i = 0; i < 100; i++) {
            budget.called();
        }
        clock.advance(Duration.ofSeconds(10));

        assertThat(budget.tryResend()).isFalse();
    }

    @Test
    void nonsenseSettingsAreRefused() {
        assertThatThrownBy(() -> new RetryBudget(clock, Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryBudget(clock, 0.2, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
