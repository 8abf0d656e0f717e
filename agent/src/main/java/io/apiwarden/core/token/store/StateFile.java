package io.apiwarden.core.token.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;

/**
 * The {@code .<name>.state} file beside a refresh-token file: a small JSON object with the
 * generation, the access token and its times, and a fingerprint of the refresh token it belongs
 * to. Unreadable content counts as no state: the JVMs then refresh and write a good one. So do
 * numbers no JVM of the fleet wrote (a generation near {@code Long.MAX_VALUE} would overflow the
 * next write's, and lose the token it carries) and a file that is not a regular one ({@link SideFile}).
 */
final class StateFile {
    private static final JsonFactory JSON = new JsonFactory();
    /**
     * The largest generation or time (epoch ms) a state may hold: 2^53, the largest integer every
     * JSON reader keeps exact. A generation grows by one per refresh (a refresh a millisecond for
     * 285,000 years stays below it), and as epoch ms it is 285,000 years from now: larger, or
     * negative, was not written by a JVM of the fleet, and the whole record counts as broken.
     */
    static final long MAX_NUMBER = 1L << 53;

    private StateFile() {}

    /** What the file holds. */
    static final class Content {
        final long generation;
        final String accessToken;
        final Instant expiresAt;
        final Instant obtainedAt;
        final String refreshFingerprint;
        /** The DPoP key the access token is bound to ({@link TokenState#boundKey}), or null. */
        final String boundKey;

        Content(
                long generation,
                String accessToken,
                Instant expiresAt,
                Instant obtainedAt,
                String refreshFingerprint,
                String boundKey) {
            this.generation = generation;
            this.accessToken = accessToken;
            this.expiresAt = expiresAt;
            this.obtainedAt = obtainedAt;
            this.refreshFingerprint = refreshFingerprint;
            this.boundKey = boundKey;
        }

        boolean belongsTo(String refreshToken) {
            return fingerprint(refreshToken).equals(refreshFingerprint);
        }
    }

    static byte[] encode(TokenState state) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField("generation", state.generation());
            if (state.accessToken() != null) {
                g.writeStringField("access_token", state.accessToken());
            }
            if (state.expiresAt() != null) {
                g.writeNumberField("expires_at_ms", state.expiresAt().toEpochMilli());
            }
            if (state.obtainedAt() != null) {
                g.writeNumberField("obtained_at_ms", state.obtainedAt().toEpochMilli());
            }
            if (state.boundKey() != null) {
                g.writeStringField("dpop_jkt", state.boundKey());
            }
            g.writeStringField(
                    "refresh_token_sha256", state.refreshToken() == null ? "" : fingerprint(state.refreshToken()));
            g.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    /** The content, or null when there is no file or it is not a state file. */
    static Content read(Path file) throws IOException {
        String text = SideFile.read(file);
        if (text == null) {
            return null;
        }
        long generation = 0;
        boolean broken = false;
        String access = null;
        Instant expires = null;
        Instant obtained = null;
        String fingerprint = "";
        String bound = null;
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "generation":
                        generation = number(p, value);
                        break;
                    case "access_token":
                        access = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        break;
                    case "expires_at_ms":
                        expires = instant(number(p, value));
                        broken |= expires == null;
                        break;
                    case "obtained_at_ms":
                        obtained = instant(number(p, value));
                        broken |= obtained == null;
                        break;
                    case "dpop_jkt":
                        bound = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        break;
                    case "refresh_token_sha256":
                        fingerprint = value == JsonToken.VALUE_STRING ? p.getText() : "";
                        break;
                    default:
                        p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return broken || generation < 1 ? null : new Content(generation, access, expires, obtained, fingerprint, bound);
    }

    /** A number within 0..{@link #MAX_NUMBER}; -1 for anything else (missing, not an integer, out of range). */
    private static long number(JsonParser p, JsonToken value) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return -1;
        }
        long n = p.getLongValue();
        return n < 0 || n > MAX_NUMBER ? -1 : n;
    }

    private static Instant instant(long epochMillis) {
        return epochMillis < 0 ? null : Instant.ofEpochMilli(epochMillis);
    }

    static String fingerprint(String refreshToken) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(refreshToken.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
