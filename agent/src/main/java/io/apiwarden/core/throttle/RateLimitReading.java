package io.apiwarden.core.throttle;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one response said about the rate limit, in whichever header family it used. Values that
 * were absent or could not be read are empty: nothing here is ever a guess.
 */
public final class RateLimitReading {
    /** Nothing read: the common case, shared. */
    public static final RateLimitReading NONE =
            new RateLimitReading(null, OptionalLong.empty(), OptionalLong.empty(), null, null);

    private final Duration retryAfter;
    private final OptionalLong limit;
    private final OptionalLong remaining;
    private final Duration reset;
    private final String family;

    RateLimitReading(Duration retryAfter, OptionalLong limit, OptionalLong remaining, Duration reset, String family) {
        this.retryAfter = retryAfter;
        this.limit = limit;
        this.remaining = remaining;
        this.reset = reset;
        this.family = family;
    }

    /** {@code Retry-After}, as a wait from the response's arrival. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    /** The quota of the current window. */
    public OptionalLong limit() {
        return limit;
    }

    /** Requests left in the current window. */
    public OptionalLong remaining() {
        return remaining;
    }

    /** Until the current window ends, from the response's arrival. */
    public Optional<Duration> reset() {
        return Optional.ofNullable(reset);
    }

    /**
     * Which family of quota headers was read: {@code ratelimit} (the IETF draft's structured
     * fields), {@code ratelimit-dictionary} (its older single-header form), {@code ratelimit-legacy}
     * ({@code RateLimit-Limit/-Remaining/-Reset}), {@code x-ratelimit}; empty when none.
     */
    public Optional<String> family() {
        return Optional.ofNullable(family);
    }

    /**
     * How long the API has announced it will refuse everyone: the reset, when nothing remains
     * of the window and the reset is known. The gate closes for it before anyone is refused.
     */
    public Optional<Duration> exhaustedFor() {
        if (remaining.isPresent() && remaining.getAsLong() == 0 && reset != null && !reset.isZero()) {
            return Optional.of(reset);
        }
        return Optional.empty();
    }

    public boolean isEmpty() {
        return retryAfter == null && family == null;
    }

    /** For people: which headers said what, e.g. {@code X-RateLimit-*: limit 100, remaining 0, resets in 20 s}. */
    public String describe() {
        if (isEmpty()) {
            return "no rate-limit header the agent reads (Retry-After, RateLimit with RateLimit-Policy, "
                    + "RateLimit-Limit/-Remaining/-Reset, X-RateLimit-Limit/-Remaining/-Reset)";
        }
        StringBuilder s = new StringBuilder();
        if (family != null) {
            s.append(headersOf(family)).append(':');
            limit.ifPresent(v -> s.append(" limit ").append(v).append(','));
            remaining.ifPresent(v -> s.append(" remaining ").append(v).append(','));
            if (reset != null) {
                s.append(" resets in ").append(seconds(reset)).append(',');
            }
            s.setLength(s.length() - 1);
        }
        if (retryAfter != null) {
            s.append(s.length() == 0 ? "" : "; ").append("Retry-After ").append(seconds(retryAfter));
        }
        return s.toString();
    }

    private static String headersOf(String family) {
        switch (family) {
            case "ratelimit":
                return "RateLimit and RateLimit-Policy";
            case "ratelimit-dictionary":
                return "RateLimit";
            case "ratelimit-legacy":
                return "RateLimit-*";
            default:
                return "X-RateLimit-*";
        }
    }

    private static String seconds(Duration d) {
        long millis = d.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "RateLimitReading{none}";
        }
        StringBuilder s = new StringBuilder("RateLimitReading{");
        if (retryAfter != null) {
            s.append("retryAfter=").append(retryAfter.toMillis()).append("ms ");
        }
        if (family != null) {
            s.append(family);
            limit.ifPresent(v -> s.append(" limit=").append(v));
            remaining.ifPresent(v -> s.append(" remaining=").append(v));
            if (reset != null) {
                s.append(" reset=").append(reset.toMillis()).append("ms");
            }
        }
        return s.toString().trim() + "}";
    }
}
