package io.apiwarden.bench;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The few statistics the report needs. */
final class Stats {
    private Stats() {}

    /** The middle value; the mean of the two middle ones for an even count. */
    static double median(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("the median of no values");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** {@code value} against {@code base} as a signed percentage: {@code +3.0%}, {@code -1.2%}. */
    static String percentOver(double value, double base) {
        return String.format(Locale.ROOT, "%+.1f%%", (value / base - 1) * 100);
    }

    /** {@code value} as a multiple of {@code base}: {@code 0.12x}. */
    static String ratio(double value, double base) {
        return String.format(Locale.ROOT, "%.2fx", value / base);
    }
}
