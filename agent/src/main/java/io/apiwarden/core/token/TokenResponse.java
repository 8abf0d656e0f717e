package io.apiwarden.core.token;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
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
    private static final JsonFactory JSON = new JsonFactory();
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
     * JVM loads and links Jackson's parser (~40 ms measured), and the new tokens, the rotated refresh token
     * among them, would wait for it.
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

    /** Parses a JSON object; throws {@link IOException} when the body is not one. */
    static TokenResponse parse(byte[] body) throws IOException {
        TokenResponse r = new TokenResponse();
        try (JsonParser p = JSON.createParser(body)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "access_token":
                        r.accessToken = text(p, value);
                        break;
                    case "token_type":
                        r.tokenType = text(p, value);
                        break;
                    case "refresh_token":
                        r.refreshToken = text(p, value);
                        break;
                    case "error":
                        r.error = text(p, value);
                        break;
                    case "error_description":
                        r.errorDescription = text(p, value);
                        break;
                    case "expires_in":
                        r.expiresIn = seconds(p, value);
                        break;
                    default:
                        p.skipChildren();
                }
            }
        }
        return r;
    }

    boolean isBearer() {
        return tokenType == null || tokenType.toLowerCase(Locale.ROOT).equals("bearer");
    }

    private static String text(JsonParser p, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        if (value != JsonToken.VALUE_STRING) {
            p.skipChildren();
            return null;
        }
        String s = p.getText();
        return s.isEmpty() ? null : s;
    }

    /**
     * {@code expires_in} as a lifetime: a number or a numeric string of seconds, clamped rather
     * than refused, since a token is no less usable for an odd lifetime. Beyond a year is a year
     * (the cap {@link TokenManager#MAX_LIFETIME} keeps clocks from overflowing); under a second,
     * negative, not a number or not numeric is unknown (null).
     */
    private static Duration seconds(JsonParser p, JsonToken value) throws IOException {
        double s;
        if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
            s = p.getDoubleValue();
        } else if (value == JsonToken.VALUE_STRING) {
            String text = p.getText().trim();
            s = NUMBER.matcher(text).matches() ? Double.parseDouble(text) : Double.NaN;
        } else {
            p.skipChildren();
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
