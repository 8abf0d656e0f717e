package io.apiwarden.core.token.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;

/**
 * The {@code .<name>.state} file beside a refresh-token file: a small JSON object with the
 * generation, the access token and its times, and a fingerprint of the refresh token it belongs
 * to. Unreadable content counts as no state: the JVMs then refresh and write a good one.
 */
final class StateFile {
    private static final JsonFactory JSON = new JsonFactory();
    /** A state file is a few hundred bytes; anything far larger is not one of ours. */
    private static final long MAX_BYTES = 64 * 1024;

    private StateFile() {
    }

    /** What the file holds. */
    static final class Content {
        final long generation;
        final String accessToken;
        final Instant expiresAt;
        final Instant obtainedAt;
        final String refreshFingerprint;

        Content(long generation, String accessToken, Instant expiresAt, Instant obtainedAt, String refreshFingerprint) {
            this.generation = generation;
            this.accessToken = accessToken;
            this.expiresAt = expiresAt;
            this.obtainedAt = obtainedAt;
            this.refreshFingerprint = refreshFingerprint;
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
            g.writeStringField("refresh_token_sha256", state.refreshToken() == null ? "" : fingerprint(state.refreshToken()));
            g.writeEndObject();
        }
        out.write('\n');
        return out.toByteArray();
    }

    /** The content, or null when there is no file or it is not a state file. */
    static Content read(Path file) throws IOException {
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_BYTES) {
                return null;
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        long generation = 0;
        String access = null;
        Instant expires = null;
        Instant obtained = null;
        String fingerprint = "";
        try (JsonParser p = JSON.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "generation":
                        generation = value == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : 0;
                        break;
                    case "access_token":
                        access = value == JsonToken.VALUE_STRING ? p.getText() : null;
                        break;
                    case "expires_at_ms":
                        expires = value == JsonToken.VALUE_NUMBER_INT ? Instant.ofEpochMilli(p.getLongValue()) : null;
                        break;
                    case "obtained_at_ms":
                        obtained = value == JsonToken.VALUE_NUMBER_INT ? Instant.ofEpochMilli(p.getLongValue()) : null;
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
        return generation < 1 ? null : new Content(generation, access, expires, obtained, fingerprint);
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
