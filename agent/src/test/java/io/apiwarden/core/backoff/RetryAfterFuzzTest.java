package io.apiwarden.core.backoff;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.NumericChars;
import net.jqwik.api.constraints.StringLength;

/** {@link RetryAfter#parse} under any header value a server or proxy might send: a wait or nothing, never an exception. */
class RetryAfterFuzzTest {
    /** From 1970 to 2200: every clock an app runs on, and dates a confused server may name. */
    private static final long LATEST = Instant.parse("2200-01-01T00:00:00Z").getEpochSecond();

    @Property(tries = 400)
    void anyValueGivesNoWaitOrOneThatIsNotNegative(
            @ForAll("headerValues") String value, @ForAll("instants") Instant now) {
        Optional<Duration> wait = RetryAfter.parse(value, now);

        wait.ifPresent(d -> assertThat(d).isGreaterThanOrEqualTo(Duration.ZERO));
    }

    @Property(tries = 200)
    void delaySecondsAreReadAsTheyAreWritten(
            @ForAll @IntRange(min = 0, max = 999_999_999) int seconds,
            @ForAll("blanks") String before,
            @ForAll("blanks") String after,
            @ForAll("instants") Instant now) {
        assertThat(RetryAfter.parse(before + seconds + after, now)).contains(Duration.ofSeconds(seconds));
    }

    @Property(tries = 100)
    void moreDigitsThanAnyRealWaitAreIgnored(
            @ForAll @NumericChars @StringLength(min = 10, max = 40) String digits, @ForAll("instants") Instant now) {
        assertThat(RetryAfter.parse(digits, now)).isEmpty();
    }

    @Property(tries = 200)
    void anHttpDateIsTheTimeUntilIt(@ForAll("instants") Instant at, @ForAll("instants") Instant now) {
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(at.atOffset(ZoneOffset.UTC));
        Duration until = Duration.between(now, at.truncatedTo(ChronoUnit.SECONDS));

        assertThat(RetryAfter.parse(date, now)).contains(until.isNegative() ? Duration.ZERO : until);
    }

    @Provide
    Arbitrary<Instant> instants() {
        return Arbitraries.longs().between(0, LATEST).map(Instant::ofEpochSecond);
    }

    @Provide
    Arbitrary<String> blanks() {
        return Arbitraries.strings().withChars(" \t").ofMaxLength(3);
    }

    /** Random text, number-like text, and HTTP-dates with one character changed, removed or added. */
    @Provide
    Arbitrary<String> headerValues() {
        Arbitrary<String> dates =
                instants().map(i -> DateTimeFormatter.RFC_1123_DATE_TIME.format(i.atOffset(ZoneOffset.UTC)));
        Arbitrary<String> editedDates = Combinators.combine(
                        dates,
                        Arbitraries.integers().between(0, 40),
                        Arbitraries.chars().all(),
                        Arbitraries.integers().between(0, 2))
                .as(RetryAfterFuzzTest::edit);
        Arbitrary<String> numberLike = Arbitraries.strings()
                .withChars("0123456789-+.eE \t\u0661\uFF11")
                .ofMaxLength(24);
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(40), numberLike, dates, editedDates);
    }

    private static String edit(String s, int at, char c, int how) {
        int i = Math.min(at, s.length());
        switch (how) {
            case 0:
                return s.substring(0, i) + c + s.substring(i);
            case 1:
                return i < s.length() ? s.substring(0, i) + s.substring(i + 1) : s;
            default:
                return i < s.length() ? s.substring(0, i) + c + s.substring(i + 1) : s + c;
        }
    }
}
