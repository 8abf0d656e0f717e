package io.apiwarden.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void medianOfAnOddCountIsTheMiddleValueWhateverTheOrder() {
        assertThat(Stats.median(List.of(9.0, 1.0, 5.0))).isEqualTo(5.0);
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        assertThat(Stats.median(List.of(4.0, 1.0, 10.0, 2.0))).isEqualTo(3.0);
    }

    @Test
    void medianOfNothingIsRefused() {
        assertThatThrownBy(() -> Stats.median(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void percentagesAndRatiosAreSignedAndRounded() {
        assertThat(Stats.percentOver(103, 100)).isEqualTo("+3.0%");
        assertThat(Stats.percentOver(98.76, 100)).isEqualTo("-1.2%");
        assertThat(Stats.ratio(25, 200)).isEqualTo("0.13x");
    }
}
