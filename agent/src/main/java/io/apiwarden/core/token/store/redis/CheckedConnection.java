package io.apiwarden.core.token.store.redis;

import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisSocketFactory;
import redis.clients.jedis.util.RedisInputStream;

/**
 * A Jedis connection whose replies pass {@link ReplyLimits} before Jedis parses them: every reply is
 * read through {@link #protocolRead}, the log-in's and the subscription's included, so that is where
 * the check goes in. It sits above TLS, on the bytes Redis sent, for plain and TLS connections alike.
 */
final class CheckedConnection extends Connection {
    /**
     * The stream Jedis hands in, and the checked one read in its place. Set on the first read, which
     * Jedis's constructor already makes (the log-in), so these fields have no initializers: one would
     * run after that read and forget it.
     */
    private RedisInputStream source;

    private RedisInputStream checked;

    CheckedConnection(JedisSocketFactory sockets, JedisClientConfig config) {
        super(sockets, config);
    }

    @Override
    protected Object protocolRead(RedisInputStream is) {
        if (is != source) {
            // Jedis's own buffer reads ahead of the check; only what passed the check reaches the parser.
            checked = new RedisInputStream(new ReplyLimits(is));
            source = is;
        }
        return super.protocolRead(checked);
    }
}
