package io.apiwarden.core.token.store.redis;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.token.store.SharedNonce;
import io.apiwarden.core.token.store.StoreUnavailableException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Protocol.Command;

/**
 * A server's latest DPoP nonce in Redis: one string key ({@link RedisStoreSettings#dpopNonceKey}), set by whichever
 * JVM learnt a new nonce, read by the others. Plain text, not sealed like the token state: a nonce is no secret, and
 * the reader checks what it reads. Loaded only when DPoP is on and the store is a Redis.
 */
public final class RedisDpopNonce implements SharedNonce {
    /**
     * How long a nonce stays in Redis after it was written. A key that outlives its nonce costs what no key costs (one
     * demand when used); one that expires first costs each JVM started later a demand. So long, and a bound only so
     * that a key nobody uses any more goes away by itself.
     */
    static final Duration TIME_TO_LIVE = Duration.ofHours(24);

    private final RedisStoreSettings settings;
    private final String key;
    private final RedisLink link;

    /** Connects on first use, never here. */
    public RedisDpopNonce(RedisStoreSettings settings, String key) {
        this(settings, key, new RedisLink(settings));
    }

    private RedisDpopNonce(RedisStoreSettings settings, String key, RedisLink link) {
        this.settings = settings;
        this.key = key;
        this.link = link;
    }

    /**
     * The nonce at {@code key}, over this one's connection: an API's two servers cost each JVM one connection, not
     * two (closing either closes it).
     */
    public RedisDpopNonce at(String key) {
        return new RedisDpopNonce(settings, key, link);
    }

    @Override
    public String read() throws StoreUnavailableException {
        Object reply = link.execute(new CommandArguments(Command.GET).add(key));
        if (reply == null) {
            return null;
        }
        if (!(reply instanceof byte[])) {
            throw new StoreUnavailableException(
                    "the store at " + describe() + " gave an unexpected reply to GET: is it a Redis server?");
        }
        return new String((byte[]) reply, StandardCharsets.US_ASCII);
    }

    @Override
    public void write(String nonce) throws StoreUnavailableException {
        link.execute(new CommandArguments(Command.SET)
                .add(key)
                .add(nonce.getBytes(StandardCharsets.US_ASCII))
                .add("PX")
                .add(TIME_TO_LIVE.toMillis()));
    }

    @Override
    public String describe() {
        return settings.describe() + " (" + key + ")";
    }

    @Override
    public void close() {
        link.close();
    }

    /** Where; never the nonce. */
    @Override
    public String toString() {
        return "RedisDpopNonce{" + describe() + "}";
    }
}
