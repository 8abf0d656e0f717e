package io.apiwarden.core.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses the sizes of the configuration: {@code 0}, {@code 512}, {@code 64KiB}, {@code 1MiB}. */
public final class Sizes {
    private static final Pattern FORMAT = Pattern.compile("(\\d{1,10})\\s*(b|kib|mib)?");
    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;

    private Sizes() {}

    /**
     * Returns the size in bytes, or throws {@link IllegalArgumentException} with a message that
     * says what a valid value looks like.
     */
    public static long parse(String text) {
        Matcher m = FORMAT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a size; write a whole non-negative number of bytes,"
                            + " or one with a unit: 512, 64KiB, 1MiB");
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        return unit.equals("mib") ? amount * MIB : unit.equals("kib") ? amount * KIB : amount;
    }

    /** Formats a size the way {@link #parse} reads it, in the largest exact unit. */
    public static String format(long bytes) {
        if (bytes > 0 && bytes % MIB == 0) {
            return bytes / MIB + "MiB";
        }
        if (bytes > 0 && bytes % KIB == 0) {
            return bytes / KIB + "KiB";
        }
        return Long.toString(bytes);
    }
}
