package io.apiwarden.core.backoff;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** Reads a {@code Retry-After} value: delay-seconds or an HTTP-date (RFC 9110 section 10.2.3). */
public final class RetryAfter {
    /** Nine digits of seconds is over 30 years: anything longer is not a real request. */
    private static final int MAX_DIGITS = 9;

    private RetryAfter() {}

    /** The wait the value asks for from {@code now}; empty when the value is absent or unreadable. */
    public static Optional<Duration> parse(String value, Instant now) {
        if (value == null) {
            return Optional.empty();
        }
        String v = value.trim();
        if (v.isEmpty()) {
            return Optional.empty();
        }
        if (v.chars().allMatch(Character::isDigit)) {
            return v.length() > MAX_DIGITS ? Optional.empty() : Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        }
        try {
            Instant at =
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
