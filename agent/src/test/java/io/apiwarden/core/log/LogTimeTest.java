package io.apiwarden.core.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LogTimeTest {
    @Test
    void writesWhatInstantWrites() {
        SplittableRandom random = new SplittableRandom(24);
        long from = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long to = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            int nano;
            switch (i % 4) {
                case 0:
                    nano = 0;
                    break;
                case 1:
                    nano = random.nextInt(1000) * 1_000_000;
                    break;
                case 2:
                    nano = random.nextInt(1_000_000) * 1000;
                    break;
                default:
                    nano = random.nextInt(1_000_000_000);
            }
            assertWritten(Instant.ofEpochSecond(random.nextLong(from, to + 1), nano));
        }
    }

    @Test
    void writesTheEdgesOfDaysMonthsAndLeapYears() {
        for (String time : new String[] {
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z",
            "2000-02-29T12:00:00.5Z",
            "1900-02-28T23:59:59Z",
            "1900-03-01T00:00:00Z",
            "2024-02-29T23:59:59.000001Z",
            "2026-11-26T19:22:24.039235734Z",
            "0000-01-01T00:00:00Z",
            "9999-12-31T23:59:59.999Z"
        }) {
            assertWritten(Instant.parse(time));
        }
    }

    @Test
    void leavesYearsOutsideFourDigitsToInstant() {
        assertWritten(Instant.parse("+10000-01-01T00:00:00Z"));
        assertWritten(Instant.parse("-0001-12-31T23:59:59Z"));
    }

    private static void assertWritten(Instant time) {
        assertThat(LogTime.append(new StringBuilder(), time).toString()).isEqualTo(time.toString());
    }
}
