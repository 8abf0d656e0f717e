package io.apiwarden.core.token;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * The fields of a token endpoint's JSON answer (RFC 6749 sections 5.1 and 5.2) that the agent
 * uses. Unknown fields are skipped; {@code expires_in} may be a number or a numeric string, as
 * some providers send it.
 */
final class TokenResponse {
    private static final JsonFactory JSON = new JsonFactory();
    /** Every kind of field a token answer has: strings, a number, one to skip. */
    private static final byte[] SAMPLE = ("{\"access_token\":\"a\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
            + "\"refresh_token\":\"r\",\"scope\":[\"s\"]}").getBytes(StandardCharsets.US_ASCII);
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

    private static Duration seconds(JsonParser p, JsonToken value) throws IOException {
        long s;
        if (value == JsonToken.VALUE_NUMBER_INT || value == JsonToken.VALUE_NUMBER_FLOAT) {
            s = p.getValueAsLong();
        } else if (value == JsonToken.VALUE_STRING) {
            try {
                s = Long.parseLong(p.getText().trim());
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            p.skipChildren();
            return null;
        }
        return s > 0 ? Duration.ofSeconds(s) : null;
    }
}
