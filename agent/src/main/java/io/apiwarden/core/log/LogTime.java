package io.apiwarden.core.log;

import java.time.Instant;

/**
 * Writes a log line's time as {@link Instant#toString()} does (ISO-8601, UTC, the fraction in groups of three digits,
 * as many as it needs), by arithmetic. {@code Instant.toString()} goes through {@code DateTimeFormatter}, whose classes
 * an app that never formats a date would load for the agent's first line alone: some 5 ms of CPU at start-up.
 */
final class LogTime {
    private static final long SECONDS_PER_DAY = 86_400;
    /** Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar. */
    private static final long DAYS_0000_03_01_TO_EPOCH = 719_468;

    private static final long DAYS_PER_400_YEARS = 146_097;

    private LogTime() {}

    /** Appends {@code time} to {@code out}; a year outside 0–9999 as {@code Instant.toString()} writes it. */
    static StringBuilder append(StringBuilder out, Instant time) {
        long seconds = time.getEpochSecond();
        long days = Math.floorDiv(seconds, SECONDS_PER_DAY);
        long secondOfDay = Math.floorMod(seconds, SECONDS_PER_DAY);
        // The civil date from a day count, with years starting on 1 March so that the leap day comes last.
        long shifted = days + DAYS_0000_03_01_TO_EPOCH;
        long era = Math.floorDiv(shifted, DAYS_PER_400_YEARS);
        long dayOfEra = shifted - era * DAYS_PER_400_YEARS;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthFromMarch = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        long month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        if (year < 0 || year > 9999) {
            return out.append(time);
        }
        pad(out, year, 4).append('-');
        pad(out, month, 2).append('-');
        pad(out, day, 2).append('T');
        pad(out, secondOfDay / 3600, 2).append(':');
        pad(out, secondOfDay / 60 % 60, 2).append(':');
        pad(out, secondOfDay % 60, 2);
        int nano = time.getNano();
        if (nano != 0) {
            out.append('.');
            if (nano % 1_000_000 == 0) {
                pad(out, nano / 1_000_000, 3);
            } else if (nano % 1000 == 0) {
                pad(out, nano / 1000, 6);
            } else {
                pad(out, nano, 9);
            }
        }
        return out.append('Z');
    }

    private static StringBuilder pad(StringBuilder out, long value, int digits) {
        String text = Long.toString(value);
        for (int i = text.length(); i < digits; i++) {
            out.append('0');
        }
        return out.append(text);
    }
}
