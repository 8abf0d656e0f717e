package io.apiwarden.core.throttle;

import io.apiwarden.core.backoff.RetryAfter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * Reads the rate-limit headers of a response, every family in use:
 * <ul>
 *   <li>{@code Retry-After}: delay-seconds or an HTTP-date;
 *   <li>the IETF draft's structured fields, {@code RateLimit: "default";r=0;t=30} with
 *       {@code RateLimit-Policy: "default";q=100;w=60} (several policies: the one with the fewest
 *       requests left counts);
 *   <li>its older dictionary form, {@code RateLimit: limit=100, remaining=0, reset=30};
 *   <li>its first form, {@code RateLimit-Limit}, {@code RateLimit-Remaining}, {@code RateLimit-Reset}
 *       (delta seconds);
 *   <li>{@code X-RateLimit-Limit}, {@code -Remaining}, {@code -Reset}, whose reset some APIs give as
 *       delta seconds and others (GitHub, for one) as a Unix time. A value of 10^9 or more is a Unix
 *       time in seconds (10^9 s is 2001; no window lasts 31 years), 10^12 or more one in milliseconds.
 * </ul>
 * A value that is not a plain non-negative integer, or a reset more than a day away, is ignored:
 * the headers come from the server and are never trusted further than they can be read.
 */
public final class RateLimitHeaders {
    /** A reset further away than this is not a rate-limit window. */
    static final Duration LONGEST_RESET = Duration.ofDays(1);

    private static final long UNIX_SECONDS_FROM = 1_000_000_000L;
    private static final long UNIX_MILLIS_FROM = 1_000_000_000_000L;
    /** Eighteen digits fit a long; more is garbage. */
    private static final int MAX_DIGITS = 18;
    /** A header longer than this is not read at all. */
    private static final int MAX_HEADER_LENGTH = 1024;

    private RateLimitHeaders() {}

    /**
     * How long the response announced that nothing is left of the window (remaining 0 with a known
     * reset), or null: what the gate needs from every managed response. A response with no
     * remaining count costs three header lookups.
     */
    public static Duration exhaustion(Function<String, List<String>> headers, Clock clock) {
        // Asked of every managed response: the look-ups make no lambda, and the clock is read only when one is there.
        if (firstValue(headers, "X-RateLimit-Remaining") == null
                && firstValue(headers, "RateLimit") == null
                && firstValue(headers, "RateLimit-Remaining") == null) {
            return null;
        }
        return read(firstValues(headers), clock.instant()).exhaustedFor().orElse(null);
    }

    /**
     * What a response said about the rate limit, for its span; null when it carries none of the
     * headers read here (five look-ups).
     */
    public static RateLimitReading readIfAny(Function<String, List<String>> headers, Instant now) {
        return anyPresent(headers) ? readPresent(headers, now) : null;
    }

    /**
     * As {@link #readIfAny}, for a response {@link #anyPresent} has found carrying some of the headers: the caller
     * that asked it first (to read the clock only then) does not pay for the five look-ups twice.
     */
    public static RateLimitReading readPresent(Function<String, List<String>> headers, Instant now) {
        RateLimitReading r = read(firstValues(headers), now);
        return r.isEmpty() ? null : r;
    }

    /**
     * Whether a response carries any of the headers {@link #readIfAny} reads (five look-ups, nothing allocated): asked
     * of every traced response first, so that the common one with none costs no reading of the clock.
     */
    public static boolean anyPresent(Function<String, List<String>> headers) {
        return firstValue(headers, "Retry-After") != null
                || firstValue(headers, "RateLimit") != null
                || firstValue(headers, "X-RateLimit-Remaining") != null
                || firstValue(headers, "X-RateLimit-Limit") != null
                || firstValue(headers, "RateLimit-Remaining") != null;
    }

    private static Function<String, String> firstValues(Function<String, List<String>> headers) {
        return new FirstValues(headers);
    }

    /** A class, not a lambda: a lambda costs a class spun on the first response read (docs/benchmarks.md). */
    private static final class FirstValues implements Function<String, String> {
        private final Function<String, List<String>> headers;

        FirstValues(Function<String, List<String>> headers) {
            this.headers = headers;
        }

        @Override
        public String apply(String name) {
            return firstValue(headers, name);
        }
    }

    private static String firstValue(Function<String, List<String>> headers, String name) {
        List<String> values = headers.apply(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * @param header the first value of a response header by name (any case), or null when absent
     * @param now    when the response arrived
     */
    public static RateLimitReading read(Function<String, String> header, Instant now) {
        Duration retryAfter =
                RetryAfter.parse(bounded(header.apply("Retry-After")), now).orElse(null);
        String structured = bounded(header.apply("RateLimit"));
        if (structured != null) {
            RateLimitReading r = structured.contains("remaining=") || structured.contains("limit=")
                    ? dictionary(structured, retryAfter)
                    : structured(structured, bounded(header.apply("RateLimit-Policy")), retryAfter);
            if (r != null) {
                return r;
            }
        }
        RateLimitReading legacy = separate(header, "RateLimit-", "ratelimit-legacy", retryAfter, now, false);
        if (legacy != null) {
            return legacy;
        }
        RateLimitReading x = separate(header, "X-RateLimit-", "x-ratelimit", retryAfter, now, true);
        if (x != null) {
            return x;
        }
        return retryAfter == null
                ? RateLimitReading.NONE
                : new RateLimitReading(retryAfter, OptionalLong.empty(), OptionalLong.empty(), null, null);
    }

    /** {@code "default";r=0;t=30, "burst";r=5;t=1}: the policy with the fewest requests left. */
    private static RateLimitReading structured(String value, String policy, Duration retryAfter) {
        long fewest = -1;
        long resetOfFewest = -1;
        String nameOfFewest = null;
        for (String item : splitList(value)) {
            long r = param(item, "r");
            long t = param(item, "t");
            if (r < 0) {
                continue;
            }
            if (fewest < 0 || r < fewest || (r == fewest && t > resetOfFewest)) {
                fewest = r;
                resetOfFewest = t;
                nameOfFewest = itemName(item);
            }
        }
        if (fewest < 0) {
            return null;
        }
        OptionalLong limit = OptionalLong.empty();
        if (policy != null) {
            for (String item : splitList(policy)) {
                long q = param(item, "q");
                if (q >= 0 && (nameOfFewest == null || nameOfFewest.equals(itemName(item)))) {
                    limit = OptionalLong.of(q);
                    break;
                }
            }
        }
        return new RateLimitReading(
                retryAfter, limit, OptionalLong.of(fewest), deltaSeconds(resetOfFewest), "ratelimit");
    }

    /** {@code limit=100, remaining=0, reset=30}. */
    private static RateLimitReading dictionary(String value, Duration retryAfter) {
        long limit = -1;
        long remaining = -1;
        long reset = -1;
        for (String member : splitList(value)) {
            int eq = member.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String key = member.substring(0, eq).trim();
            long v = integer(member.substring(eq + 1));
            if (key.equals("limit")) {
                limit = v;
            } else if (key.equals("remaining")) {
                remaining = v;
            } else if (key.equals("reset")) {
                reset = v;
            }
        }
        if (limit < 0 && remaining < 0) {
            return null;
        }
        return new RateLimitReading(
                retryAfter, optional(limit), optional(remaining), deltaSeconds(reset), "ratelimit-dictionary");
    }

    private static RateLimitReading separate(
            Function<String, String> header,
            String prefix,
            String family,
            Duration retryAfter,
            Instant now,
            boolean resetMayBeUnixTime) {
        long limit = integer(bounded(header.apply(prefix + "Limit")));
        long remaining = integer(bounded(header.apply(prefix + "Remaining")));
        if (limit < 0 && remaining < 0) {
            return null;
        }
        long reset = integer(bounded(header.apply(prefix + "Reset")));
        Duration resetIn = resetMayBeUnixTime ? resetOfEitherKind(reset, now) : deltaSeconds(reset);
        return new RateLimitReading(retryAfter, optional(limit), optional(remaining), resetIn, family);
    }

    private static Duration resetOfEitherKind(long value, Instant now) {
        if (value < UNIX_SECONDS_FROM) {
            return deltaSeconds(value);
        }
        Instant at = value >= UNIX_MILLIS_FROM ? Instant.ofEpochMilli(value) : Instant.ofEpochSecond(value);
        Duration d = Duration.between(now, at);
        if (d.isNegative()) {
            return Duration.ZERO;
        }
        return d.compareTo(LONGEST_RESET) > 0 ? null : d;
    }

    private static Duration deltaSeconds(long seconds) {
        return seconds < 0 || seconds > LONGEST_RESET.getSeconds() ? null : Duration.ofSeconds(seconds);
    }

    /** The value of {@code ;name=} in an item, or -1. */
    private static long param(String item, String name) {
        int at = 0;
        while ((at = item.indexOf(';', at)) >= 0) {
            at++;
            int eq = item.indexOf('=', at);
            int end = item.indexOf(';', at);
            if (end < 0) {
                end = item.length();
            }
            if (eq > 0 && eq < end && item.substring(at, eq).trim().equals(name)) {
                return integer(item.substring(eq + 1, end));
            }
        }
        return -1;
    }

    private static String itemName(String item) {
        int semicolon = item.indexOf(';');
        String name = (semicolon < 0 ? item : item.substring(0, semicolon)).trim();
        return name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")
                ? name.substring(1, name.length() - 1)
                : name;
    }

    /** Splits a structured-field list on the commas outside quoted strings; nothing when a quote is left open. */
    private static java.util.List<String> splitList(String value) {
        java.util.List<String> items = new java.util.ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' && (i == 0 || value.charAt(i - 1) != '\\')) {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                items.add(value.substring(start, i));
                start = i + 1;
            }
        }
        if (quoted) {
            // A quoted string that never ends: nothing in it can be told apart from garbage.
            return java.util.List.of();
        }
        items.add(value.substring(start));
        return items;
    }

    /** A plain non-negative integer, or -1. */
    private static long integer(String value) {
        if (value == null) {
            return -1;
        }
        String v = value.trim();
        if (v.isEmpty() || v.length() > MAX_DIGITS) {
            return -1;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(v);
    }

    private static OptionalLong optional(long value) {
        return value < 0 ? OptionalLong.empty() : OptionalLong.of(value);
    }

    private static String bounded(String value) {
        return value == null || value.length() > MAX_HEADER_LENGTH ? null : value;
    }
}
