package io.apiwarden.core.token.store;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.JsonWriter;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
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
 *
 * <p>Read and written with Gson's streaming reader (strict, as the token answer's) and writer: a JVM's first call
 * reads this file, and those are about ten classes to load where Jackson's factory loaded some seventy
 * (docs/benchmarks.md). The file's values are ASCII (tokens pass {@code TokenText}'s check), so the bytes written are
 * those Jackson wrote, and JVMs of both versions read each other's files.
 */
final class StateFile {
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
        StringWriter out = new StringWriter(256);
        try (JsonWriter w = new JsonWriter(out)) {
            w.beginObject();
            w.name("generation").value(state.generation());
            if (state.accessToken() != null) {
                w.name("access_token").value(state.accessToken());
            }
            if (state.expiresAt() != null) {
                w.name("expires_at_ms").value(state.expiresAt().toEpochMilli());
            }
            if (state.obtainedAt() != null) {
                w.name("obtained_at_ms").value(state.obtainedAt().toEpochMilli());
            }
            if (state.boundKey() != null) {
                w.name("dpop_jkt").value(state.boundKey());
            }
            w.name("refresh_token_sha256").value(state.refreshToken() == null ? "" : fingerprint(state.refreshToken()));
            w.endObject();
        }
        out.write('\n');
        return out.toString().getBytes(StandardCharsets.UTF_8);
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
        try (JsonReader in = new JsonReader(new StringReader(text))) {
            in.setStrictness(Strictness.STRICT);
            if (in.peek() != JsonToken.BEGIN_OBJECT) {
                return null;
            }
            in.beginObject();
            while (in.hasNext()) {
                switch (in.nextName()) {
                    case "generation":
                        generation = number(in);
                        break;
                    case "access_token":
                        access = string(in);
                        break;
                    case "expires_at_ms":
                        expires = instant(number(in));
                        broken |= expires == null;
                        break;
                    case "obtained_at_ms":
                        obtained = instant(number(in));
                        broken |= obtained == null;
                        break;
                    case "dpop_jkt":
                        bound = string(in);
                        break;
                    case "refresh_token_sha256":
                        String f = string(in);
                        fingerprint = f == null ? "" : f;
                        break;
                    default:
                        in.skipValue();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return broken || generation < 1 ? null : new Content(generation, access, expires, obtained, fingerprint, bound);
    }

    /** A string value; null for any other (which is passed over). */
    private static String string(JsonReader in) throws IOException {
        if (in.peek() == JsonToken.STRING) {
            return in.nextString();
        }
        in.skipValue();
        return null;
    }

    /** An integer within 0..{@link #MAX_NUMBER}; -1 for anything else (not a number, not an integer, out of range). */
    private static long number(JsonReader in) throws IOException {
        if (in.peek() != JsonToken.NUMBER) {
            in.skipValue();
            return -1;
        }
        long n;
        try {
            // A fraction, an exponent or more than a long holds fails here: no integer as the fleet writes it.
            n = Long.parseLong(in.nextString());
        } catch (NumberFormatException e) {
            return -1;
        }
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
