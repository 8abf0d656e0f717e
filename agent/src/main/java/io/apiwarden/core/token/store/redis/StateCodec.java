package io.apiwarden.core.token.store.redis;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Arrays;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The tokens of a {@link TokenState} as the bytes kept in Redis, sealed with AES-256-GCM when there is a
 * key. The generation is kept beside them, readable by the compare-and-set script, and bound to the
 * sealed bytes as associated data together with the key name: a sealed record moved to another key or
 * paired with another generation does not open.
 *
 * <p>Layout: one format byte ({@link #PLAIN} or {@link #SEALED}); for sealed records a 12-byte random
 * nonce, then the encrypted tokens and the 16-byte tag. The tokens: a byte of flags for the fields that
 * are present, then each present field (strings as a length and UTF-8, instants as epoch milliseconds).
 *
 * <p>The key follows its file ({@link ReloadableSecret}), so that a fleet's key is rotated without restarting every
 * JVM at once: records are written with the newest key, and read with it or, failing that, with the one key before
 * it, which the JVMs that have not seen the new file yet still write with. One previous key only: a record two
 * rotations old is dead anyway (its refresh is long due), and every extra key is another try on every damaged read.
 * A record that opens with neither has the file looked at at once (another JVM may have seen the new key first).
 */
final class StateCodec {
    static final byte PLAIN = 1;
    static final byte SEALED = 2;
    /** The size GCM is defined for; random nonces stay safe for 2^32 writes under one key, far more than refreshes. */
    static final int NONCE_BYTES = 12;

    private static final int TAG_BITS = 128;
    /**
     * Tokens above this are refused on read: a token file holds at most 32 KiB, and an access token over
     * 16 KiB cannot go into a header. A larger length is a damaged record, not a token.
     */
    static final int MAX_TOKEN_BYTES = 64 * 1024;
    /**
     * The largest record {@link #decode} can accept: the format byte, a nonce and a tag, the flags, two
     * tokens of {@link #MAX_TOKEN_BYTES} with their lengths, and two instants. Redis replies are read to
     * this and little more ({@link ReplyLimits}).
     */
    static final int MAX_RECORD_BYTES =
            1 + NONCE_BYTES + TAG_BITS / 8 + 1 + 2 * (Integer.BYTES + MAX_TOKEN_BYTES) + 2 * Long.BYTES;

    private static final String AAD_LABEL = "apiwarden token state 1";

    private static final int ACCESS = 1;
    private static final int EXPIRES = 2;
    private static final int OBTAINED = 4;
    private static final int REFRESH = 8;

    /** Null to keep the tokens in the clear. */
    private final ReloadableSecret<SecretKeySpec> keyFile;

    private final SecureRandom random;
    /** Guarded by {@code this}: the key last taken from {@link #keyFile}, and the one before it (or null). */
    private SecretKeySpec current;

    private SecretKeySpec previous;

    /** @param key the AES-256 key, never changing, or null to keep the tokens in the clear */
    StateCodec(byte[] key, SecureRandom random) {
        this(
                random,
                key == null
                        ? null
                        : ReloadableSecret.fixed(
                                ConfigProperty.STORE_ENCRYPTION_KEY_FILE.key(), new SecretKeySpec(key, "AES")));
    }

    /** A codec whose key follows its file, the key before kept for reading. */
    static StateCodec following(ReloadableSecret<SecretKeySpec> keyFile, SecureRandom random) {
        return new StateCodec(random, keyFile);
    }

    private StateCodec(SecureRandom random, ReloadableSecret<SecretKeySpec> keyFile) {
        this.keyFile = keyFile;
        this.random = random;
        this.current = keyFile == null ? null : keyFile.get();
    }

    /** The AES-256 key of a key file's content ({@link RedisStoreSettings#encryptionKey(byte[])}). */
    static SecretKeySpec keyOf(byte[] content) {
        byte[] key = RedisStoreSettings.encryptionKey(content);
        try {
            return new SecretKeySpec(key, "AES");
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** The key to write with, then the one before it (or null); the file is looked at if the check interval passed. */
    private synchronized SecretKeySpec[] keys() {
        SecretKeySpec now = keyFile.get();
        // The same object while the file is unchanged (ReloadableSecret replaces its value only on new content);
        // equals would copy the key's bytes on every record.
        if (now != current) {
            previous = current;
            current = now;
        }
        return new SecretKeySpec[] {current, previous};
    }

    /** The bytes to store for {@code state} under {@code stateKey}. */
    byte[] encode(String stateKey, TokenState state) throws StoreUnavailableException {
        byte[] tokens = tokens(state);
        if (keyFile == null) {
            return ByteBuffer.allocate(1 + tokens.length).put(PLAIN).put(tokens).array();
        }
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, keys()[0], new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData(stateKey, state.generation()));
            byte[] sealed = cipher.doFinal(tokens);
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length)
                    .put(SEALED)
                    .put(nonce)
                    .put(sealed)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new StoreUnavailableException("this Java runtime cannot encrypt with AES-256-GCM ("
                    + e.getClass().getSimpleName() + "): the token state is not written");
        }
    }

    /** The state stored as {@code stored} at {@code generation} under {@code stateKey}. */
    TokenState decode(String stateKey, long generation, byte[] stored) throws StoreUnavailableException {
        String keySetting = ConfigProperty.STORE_ENCRYPTION_KEY_FILE.key();
        if (stored.length == 0) {
            throw unreadable(stateKey, "is empty");
        }
        if (stored[0] == PLAIN) {
            if (keyFile != null) {
                // With a key set, a record in the clear may have been put there by whoever can write to Redis.
                throw new StoreUnavailableException(
                        "the token state at " + stateKey + " is not encrypted, but " + keySetting
                                + " is set: give every JVM of this client the same key, and remove the record written without it");
            }
            return parse(stateKey, generation, ByteBuffer.wrap(stored, 1, stored.length - 1));
        }
        if (stored[0] != SEALED) {
            throw unreadable(stateKey, "has an unknown format (" + stored[0] + ")");
        }
        if (keyFile == null) {
            throw new StoreUnavailableException("the token state at " + stateKey + " is encrypted: set " + keySetting
                    + " to the key the other JVMs of this client use");
        }
        if (stored.length < 1 + NONCE_BYTES + TAG_BITS / 8) {
            throw unreadable(stateKey, "is too short to be encrypted state");
        }
        try {
            SecretKeySpec[] keys = keys();
            byte[] tokens = open(stateKey, generation, stored, keys);
            if (tokens == null && keyFile.checkNow()) {
                keys = keys();
                tokens = open(stateKey, generation, stored, keys);
            }
            if (tokens == null) {
                throw new StoreUnavailableException(
                        "the token state at " + stateKey
                                + " does not open with the key in " + keySetting
                                + (keys[1] == null ? "" : " (nor with the one before it)")
                                + ": check that every JVM of this client has the same key (or the record was altered in Redis)");
            }
            return parse(stateKey, generation, ByteBuffer.wrap(tokens));
        } catch (GeneralSecurityException e) {
            throw new StoreUnavailableException("this Java runtime cannot decrypt AES-256-GCM ("
                    + e.getClass().getSimpleName() + "): the token state is not read");
        }
    }

    /** The tokens sealed in {@code stored}, opened with the first of {@code keys} that opens them; null if none does. */
    private static byte[] open(String stateKey, long generation, byte[] stored, SecretKeySpec[] keys)
            throws GeneralSecurityException {
        for (SecretKeySpec key : keys) {
            if (key == null) {
                continue;
            }
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, stored, 1, NONCE_BYTES));
            cipher.updateAAD(associatedData(stateKey, generation));
            try {
                return cipher.doFinal(stored, 1 + NONCE_BYTES, stored.length - 1 - NONCE_BYTES);
            } catch (AEADBadTagException e) {
                // Sealed with another key (or altered): the next key is tried.
            }
        }
        return null;
    }

    private static byte[] associatedData(String stateKey, long generation) {
        byte[] label = AAD_LABEL.getBytes(StandardCharsets.US_ASCII);
        byte[] name = stateKey.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(label.length + 1 + name.length + 1 + Long.BYTES)
                .put(label)
                .put((byte) 0)
                .put(name)
                .put((byte) 0)
                .putLong(generation)
                .array();
    }

    private static byte[] tokens(TokenState s) {
        byte[] access = s.accessToken() == null ? null : s.accessToken().getBytes(StandardCharsets.UTF_8);
        byte[] refresh = s.refreshToken() == null ? null : s.refreshToken().getBytes(StandardCharsets.UTF_8);
        int flags = (access != null ? ACCESS : 0)
                | (s.expiresAt() != null ? EXPIRES : 0)
                | (s.obtainedAt() != null ? OBTAINED : 0)
                | (refresh != null ? REFRESH : 0);
        ByteBuffer b = ByteBuffer.allocate(1 + length(access) + length(refresh) + 2 * Long.BYTES);
        b.put((byte) flags);
        putString(b, access);
        if (s.expiresAt() != null) {
            b.putLong(s.expiresAt().toEpochMilli());
        }
        if (s.obtainedAt() != null) {
            b.putLong(s.obtainedAt().toEpochMilli());
        }
        putString(b, refresh);
        byte[] out = new byte[b.position()];
        b.flip().get(out);
        return out;
    }

    private static int length(byte[] s) {
        return s == null ? 0 : Integer.BYTES + s.length;
    }

    private static void putString(ByteBuffer b, byte[] s) {
        if (s != null) {
            b.putInt(s.length).put(s);
        }
    }

    private static TokenState parse(String stateKey, long generation, ByteBuffer b) throws StoreUnavailableException {
        try {
            int flags = b.get();
            String access = (flags & ACCESS) != 0 ? string(b) : null;
            Instant expires = (flags & EXPIRES) != 0 ? Instant.ofEpochMilli(b.getLong()) : null;
            Instant obtained = (flags & OBTAINED) != 0 ? Instant.ofEpochMilli(b.getLong()) : null;
            String refresh = (flags & REFRESH) != 0 ? string(b) : null;
            if (b.hasRemaining() || (flags & ~(ACCESS | EXPIRES | OBTAINED | REFRESH)) != 0) {
                throw unreadable(stateKey, "has bytes this version does not know");
            }
            return new TokenState(generation, access, expires, obtained, refresh);
        } catch (BufferUnderflowException | IllegalArgumentException | DateTimeException e) {
            throw unreadable(stateKey, "is cut short or damaged");
        }
    }

    private static String string(ByteBuffer b) {
        int length = b.getInt();
        if (length < 0 || length > MAX_TOKEN_BYTES || length > b.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] s = new byte[length];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    private static StoreUnavailableException unreadable(String stateKey, String why) {
        return new StoreUnavailableException("the token state at " + stateKey + " " + why + ": delete that key, or set "
                + ConfigProperty.STORE_KEY.key() + " to a key of its own for this client");
    }
}
