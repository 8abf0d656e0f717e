package io.apiwarden.core.config;

import java.net.URI;
import java.time.Duration;

/**
 * Where an API's token state is shared: the Redis store {@code apiwarden.store} names, or none (the refresh-token
 * file, when there is one, needs no setting), and the time limit of each operation on it.
 */
final class StoreSettings {
    /** Null when no Redis store is configured. */
    final RedisStoreSettings redis;

    /** The time limit of an operation on the store: the Redis one, or the refresh-token file's lock. */
    final Duration timeout;

    StoreSettings(SectionReader r, URI tokenUrl) {
        String store = r.raw(ConfigProperty.STORE);
        if (store == null) {
            // The default path never loads the Redis store's classes, its settings included.
            redis = null;
            timeout = r.positiveDuration(ConfigProperty.STORE_TIMEOUT);
            return;
        }
        if (!RedisStoreSettings.isRedisUrl(store)) {
            r.problems()
                    .add(r.where(ConfigProperty.STORE)
                            + " is not a Redis URL: write redis://host:port or rediss://host:port"
                            + " (the refresh-token file needs no setting), or unset it");
            redis = null;
            timeout = RedisStoreSettings.DEFAULT_TIMEOUT;
            return;
        }
        redis = RedisStoreReader.read(r);
        timeout = redis != null ? redis.timeout() : r.positiveDuration(ConfigProperty.STORE_TIMEOUT);
        if (redis != null && tokenUrl == null && r.raw(ConfigProperty.STORE_KEY) == null) {
            r.problems()
                    .add(r.where(ConfigProperty.STORE)
                            + " is set but there is no token endpoint to name the shared state after: set "
                            + r.key(ConfigProperty.AUTH_URL) + " or " + r.key(ConfigProperty.STORE_KEY));
        }
    }

    String describe(boolean refreshTokenFile) {
        return redis != null ? redis.describe() : refreshTokenFile ? "file" : "memory";
    }
}
