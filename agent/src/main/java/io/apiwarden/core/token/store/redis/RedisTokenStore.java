package io.apiwarden.core.token.store.redis;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.secret.SecretFile;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol.Command;

/**
 * The token state of one OAuth client in Redis, shared by every JVM that uses the client.
 *
 * <p>Two keys under the client's prefix: {@code <prefix>:state}, a hash of the {@code generation} (a
 * decimal number, which the compare-and-set script compares) and the {@code state} (the tokens, see
 * {@link StateCodec}); and {@code <prefix>:lease}, a string holding the current lease holder's random
 * owner ID, which expires by itself. Writes and lease changes are Lua scripts, so each is one atomic
 * step on the server.
 *
 * <p>This class and the Redis client behind it are loaded only when {@code apiwarden.store} names a Redis.
 */
public final class RedisTokenStore implements TokenStore {
    private static final byte[] GENERATION = bytes("generation");
    private static final byte[] STATE = bytes("state");
    /**
     * The DPoP key the state's access token is bound to, as {@code <generation>:<thumbprint>} (empty for a token
     * bound to none), in a field of its own rather than in the record: agents of earlier versions, which refuse a
     * record with fields they do not know, read the records of newer ones in a fleet being upgraded, and their
     * writes (which leave this field as it was) are told apart by the generation.
     */
    private static final byte[] BOUND_KEY = bytes("bound-key");

    private static final byte[] OK = bytes("OK");

    /**
     * KEYS[1] the state hash; ARGV: the generation it must hold now ('0': none), the new one, the tokens, the bound
     * key ({@link #BOUND_KEY}).
     */
    private static final byte[] COMPARE_AND_SET = bytes("local current = redis.call('HGET', KEYS[1], 'generation')\n"
            + "if (current or '0') ~= ARGV[1] then return 0 end\n"
            + "redis.call('HSET', KEYS[1], 'generation', ARGV[2], 'state', ARGV[3], 'bound-key', ARGV[4])\n"
            + "return 1\n");
    /** KEYS[1] the lease; ARGV: the owner, the time-to-live in ms. Only the owner extends it. */
    private static final byte[] RENEW =
            bytes("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end\n"
                    + "return 0\n");
    /** KEYS[1] the lease; ARGV[1] the owner. Only the owner removes it. */
    private static final byte[] RELEASE = bytes(
            "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end\n" + "return 0\n");
    /** 128 random bits: no two holders ever draw the same. */
    private static final int OWNER_RANDOM_BYTES = 16;

    private final RedisStoreSettings settings;
    private final String stateKey;
    private final byte[] stateKeyBytes;
    private final byte[] leaseKey;
    private final StateCodec codec;
    private final SecureRandom random = new SecureRandom();
    private final RedisLink link;

    /**
     * A store for the OAuth client of {@code tokenUrl} and {@code clientId}, under the key prefix the
     * settings give for them. Connects on first use, never here.
     */
    public RedisTokenStore(RedisStoreSettings settings, URI tokenUrl, String clientId) {
        this(settings, settings.keyPrefix(tokenUrl, clientId, null));
    }

    /** As above, for a grant whose tokens must not meet another grant's of the same client ({@code Grant.storeIdentity}). */
    public RedisTokenStore(RedisStoreSettings settings, URI tokenUrl, String clientId, String grantIdentity) {
        this(settings, settings.keyPrefix(tokenUrl, clientId, grantIdentity));
    }

    RedisTokenStore(RedisStoreSettings settings, String keyPrefix) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.stateKey = keyPrefix + ":state";
        this.stateKeyBytes = bytes(stateKey);
        this.leaseKey = bytes(keyPrefix + ":lease");
        this.codec = codec(settings, random);
        this.link = new RedisLink(settings);
    }

    /** The codec; its key follows the file it came from, the key before kept for reading ({@link StateCodec}). */
    private static StateCodec codec(RedisStoreSettings settings, SecureRandom random) {
        byte[] key = settings.encryptionKey();
        try {
            if (key != null && settings.encryptionKeyFile() != null) {
                try {
                    return StateCodec.following(
                            ReloadableSecret.open(
                                    settings.encryptionKeyProperty(),
                                    settings.encryptionKeyFile(),
                                    StateCodec::keyOf,
                                    Clock.systemUTC(),
                                    settings.checkInterval()),
                            random);
                } catch (IOException | RuntimeException e) {
                    // The configuration read it a moment ago: the key read then is used.
                    AgentLog.warn(settings.encryptionKeyProperty() + " changed since start-up and cannot be used ("
                            + (e instanceof SecretFile.Unusable
                                    ? e.getMessage()
                                    : e.getClass().getSimpleName())
                            + "); the key read at start-up is used and the file is not followed");
                }
            }
            return new StateCodec(key, random);
        } finally {
            if (key != null) {
                Arrays.fill(key, (byte) 0);
            }
        }
    }

    @Override
    public TokenState read() throws StoreUnavailableException {
        Object reply = link.execute(new CommandArguments(Command.HMGET)
                .add(stateKeyBytes)
                .add(GENERATION)
                .add(STATE)
                .add(BOUND_KEY));
        List<?> fields = expect(List.class, reply, "HMGET");
        if (fields.size() != 3
                || !(fields.get(0) == null || fields.get(0) instanceof byte[])
                || !(fields.get(1) == null || fields.get(1) instanceof byte[])
                || !(fields.get(2) == null || fields.get(2) instanceof byte[])) {
            throw unexpected("HMGET");
        }
        byte[] generation = (byte[]) fields.get(0);
        byte[] state = (byte[]) fields.get(1);
        if (generation == null && state == null) {
            return null;
        }
        if (generation == null || state == null) {
            throw new StoreUnavailableException("the token state at " + stateKey + " is incomplete: delete that key");
        }
        long g;
        try {
            g = Long.parseLong(new String(generation, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            g = 0;
        }
        if (g < 1) {
            throw new StoreUnavailableException(
                    "the token state at " + stateKey + " has no valid generation: delete that key");
        }
        TokenState tokens = codec.decode(stateKey, g, state);
        String bound = boundKey(g, (byte[]) fields.get(2));
        return bound == null ? tokens : tokens.boundTo(bound);
    }

    /** The thumbprint in {@code field} when it was written with the state of generation {@code g}, else null. */
    private static String boundKey(long g, byte[] field) {
        if (field == null) {
            return null;
        }
        String value = new String(field, StandardCharsets.US_ASCII);
        String prefix = g + ":";
        return value.startsWith(prefix) && value.length() > prefix.length() ? value.substring(prefix.length()) : null;
    }

    @Override
    public boolean compareAndSet(TokenState next) throws StoreUnavailableException {
        byte[] sealed = codec.encode(stateKey, next);
        Object reply = link.execute(new CommandArguments(Command.EVAL)
                .add(COMPARE_AND_SET)
                .add(1)
                .add(stateKeyBytes)
                .add(Long.toString(next.generation() - 1))
                .add(Long.toString(next.generation()))
                .add(sealed)
                .add(next.boundKey() == null ? "" : next.generation() + ":" + next.boundKey()));
        return yesOrNo(reply, "the compare-and-set script");
    }

    /** @throws IllegalArgumentException when {@code ttl} is under a millisecond */
    @Override
    public Lease tryLease(Duration ttl) throws StoreUnavailableException {
        long ttlMillis = ttl.toMillis();
        if (ttlMillis < 1) {
            throw new IllegalArgumentException("a lease lasts at least 1 ms");
        }
        byte[] owner = newOwner();
        Object reply = link.execute(new CommandArguments(Command.SET)
                .add(leaseKey)
                .add(owner)
                .add("NX")
                .add("PX")
                .add(ttlMillis));
        if (reply == null) {
            return null;
        }
        // SET ... NX answers OK or nil; anything else is no lease, and no Redis.
        if (!Arrays.equals(expect(byte[].class, reply, "SET"), OK)) {
            throw unexpected("SET");
        }
        return new RedisLease(owner, ttlMillis);
    }

    @Override
    public String describe() {
        return settings.describe();
    }

    @Override
    public void close() {
        link.close();
    }

    /** Where, which keys, and whether encrypted; never a credential. */
    @Override
    public String toString() {
        return "RedisTokenStore{" + settings.describe() + ", key=" + stateKey + ", encryption="
                + (settings.encrypted() ? "AES-256-GCM" : "off") + "}";
    }

    private byte[] newOwner() {
        byte[] r = new byte[OWNER_RANDOM_BYTES];
        random.nextBytes(r);
        // The process ID tells an operator looking at the lease which JVM holds it; the random part makes it unique.
        StringBuilder owner =
                new StringBuilder().append(ProcessHandle.current().pid()).append(':');
        for (byte b : r) {
            owner.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return bytes(owner.toString());
    }

    private <T> T expect(Class<T> type, Object reply, String what) throws StoreUnavailableException {
        if (!type.isInstance(reply)) {
            throw unexpected(what);
        }
        return type.cast(reply);
    }

    /** A script's answer: 1 for done, 0 for not; any other is a reply no store script gives. */
    private boolean yesOrNo(Object reply, String what) throws StoreUnavailableException {
        long answer = expect(Long.class, reply, what);
        if (answer != 0 && answer != 1) {
            throw unexpected(what);
        }
        return answer == 1;
    }

    private StoreUnavailableException unexpected(String what) {
        return new StoreUnavailableException("the token store at " + describe() + " gave an unexpected reply to " + what
                + ": is it a Redis server?");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** One holder's right to refresh; its owner ID is what the server compares before changing it. */
    private final class RedisLease implements Lease {
        private final byte[] owner;
        private final long ttlMillis;

        RedisLease(byte[] owner, long ttlMillis) {
            this.owner = owner;
            this.ttlMillis = ttlMillis;
        }

        @Override
        public boolean renew() throws StoreUnavailableException {
            Object reply = link.execute(new CommandArguments(Command.EVAL)
                    .add(RENEW)
                    .add(1)
                    .add(leaseKey)
                    .add(owner)
                    .add(ttlMillis));
            return yesOrNo(reply, "the lease renewal script");
        }

        @Override
        public void release() {
            try {
                link.execute(new CommandArguments(Command.EVAL)
                        .add(RELEASE)
                        .add(1)
                        .add(leaseKey)
                        .add(owner));
            } catch (StoreUnavailableException | RuntimeException e) {
                // The lease then runs out by itself, within its time-to-live.
                AgentLog.debug("could not release the refresh lease on " + describe() + "; it expires by itself: "
                        + e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "RedisLease{" + describe() + ", ttl=" + ttlMillis + "ms}";
        }
    }
}
