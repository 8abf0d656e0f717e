package io.apiwarden.core.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the durations of the configuration: {@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}. */
public final class Durations {
    private static final Pattern FORMAT = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)");

    private Durations() {}

    /**
     * Returns the duration, or throws {@link IllegalArgumentException} with a message that says
     * what a valid value looks like.
     */
    public static Duration parse(String text) {
        Matcher m = FORMAT.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text
                    + "' is not a duration; write a whole non-negative number with a unit: 500ms, 2s, 1m or 1h");
        }
        long amount = Long.parseLong(m.group(1));
        switch (m.group(2)) {
            case "ms":
                return Duration.ofMillis(amount);
            case "s":
                return Duration.ofSeconds(amount);
            case "m":
                return Duration.ofMinutes(amount);
            default:
                return Duration.ofHours(amount);
        }
    }

    /** Formats a duration the way {@link #parse} reads it, in the largest exact unit. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0 && ms > 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
