package io.apiwarden.core.token;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The fields of a token endpoint's JSON answer (RFC 6749 sections 5.1 and 5.2) that the agent
 * uses. Unknown fields are skipped; {@code expires_in} may be a number or a numeric string, as
 * some providers send it, and any number is clamped to a usable lifetime.
 */
final class TokenResponse {
    /** A JSON number (RFC 8259 section 6), the form a numeric {@code expires_in} string takes. */
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    /** Every kind of field a token answer has: strings, a number, one to skip. */
    private static final byte[] SAMPLE = ("{\"access_token\":\"a\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
                    + "\"refresh_token\":\"r\",\"scope\":[\"s\"]}")
            .getBytes(StandardCharsets.US_ASCII);

    private static volatile boolean warm;

    String accessToken;
    String tokenType;
    Duration expiresIn;
    String refreshToken;
    String error;
    String errorDescription;

    /**
     * Parses a sample answer, once per JVM, before the first token request goes out: the first parse of a
     * JVM loads and links the JSON reader, and the new tokens, the rotated refresh token among them, would
     * wait for it.
     */
    static void warmUp() {
        if (warm) {
            return;
        }
        warm = true;
        try {
            parse(SAMPLE);
        } catch (Throwable e) {
            // A warm-up only: the real answer is parsed, and judged, all the same.
        }
    }

    /**
     * Parses a JSON object; throws {@link IOException} when the body is not one, or not UTF-8 (RFC 8259 section 8.1).
     * Gson's streaming reader, strict: about ten classes to load, where Jackson's factory loaded some seventy on a
     * JVM's first call (docs/benchmarks.md).
     */
    static TokenResponse parse(byte[] body) throws IOException {
        TokenResponse r = new TokenResponse();
        String text = StandardCharsets.UTF_8
                .newDecoder()
                .decode(ByteBuffer.wrap(body))
                .toString();
        try (JsonReader in = strictReader(text)) {
            if (in.peek() != JsonToken.BEGIN_OBJECT) {
                throw new IOException("not a JSON object");
            }
            in.beginObject();
            while (in.hasNext()) {
                switch (in.nextName()) {
                    case "access_token":
                        r.accessToken = text(in);
                        break;
                    case "token_type":
                        r.tokenType = text(in);
                        break;
                    case "refresh_token":
                        r.refreshToken = text(in);
                        break;
                    case "error":
                        r.error = text(in);
                        break;
                    case "error_description":
                        r.errorDescription = text(in);
                        break;
                    case "expires_in":
                        r.expiresIn = seconds(in);
                        break;
                    default:
                        in.skipValue();
                }
            }
        } catch (IllegalStateException | NumberFormatException e) {
            // The reader's own complaints about a value of the wrong shape: still a body that is no token answer.
            throw new IOException("not a token answer: " + e.getClass().getSimpleName(), e);
        }
        return r;
    }

    /**
     * A strict reader: no comments, unquoted or single-quoted names and strings, {@code NaN}, literals in other cases
     * ({@code TRUE}) or unescaped control characters in the strings it reads (Gson does not check the strings it
     * skips).
     */
    private static JsonReader strictReader(String json) {
        JsonReader in = new JsonReader(new StringReader(json));
        in.setStrictness(Strictness.STRICT);
        return in;
    }

    boolean isBearer() {
        return tokenType == null || tokenType.toLowerCase(Locale.ROOT).equals("bearer");
    }

    private static String text(JsonReader in) throws IOException {
        JsonToken value = in.peek();
        if (value == JsonToken.NULL) {
            in.nextNull();
            return null;
        }
        if (value != JsonToken.STRING) {
            in.skipValue();
            return null;
        }
        String s = in.nextString();
        return s.isEmpty() ? null : s;
    }

    /**
     * {@code expires_in} as a lifetime: a number or a numeric string of seconds, clamped rather
     * than refused, since a token is no less usable for an odd lifetime. Beyond a year is a year
     * (the cap {@link TokenManager#MAX_LIFETIME} keeps clocks from overflowing); under a second,
     * negative, not a number or not numeric is unknown (null).
     */
    private static Duration seconds(JsonReader in) throws IOException {
        JsonToken value = in.peek();
        double s;
        if (value == JsonToken.NUMBER) {
            // Its text, not nextDouble(): a strict reader refuses a number too large for a double (1e999), which
            // is a lifetime like any other here, clamped below.
            s = Double.parseDouble(in.nextString());
        } else if (value == JsonToken.STRING) {
            String text = in.nextString().trim();
            s = NUMBER.matcher(text).matches() ? Double.parseDouble(text) : Double.NaN;
        } else {
            in.skipValue();
            return null;
        }
        return lifetime(s);
    }

    /** Seconds as a lifetime, clamped as {@link #seconds} says; whole seconds, rounded down. */
    static Duration lifetime(double seconds) {
        if (!(seconds >= 1)) {
            return null;
        }
        if (seconds >= TokenManager.MAX_LIFETIME.getSeconds()) {
            return TokenManager.MAX_LIFETIME;
        }
        return Duration.ofSeconds((long) seconds);
    }
}
