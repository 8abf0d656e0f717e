package io.apiwarden.core;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.dpop.Dpop;
import io.apiwarden.core.dpop.LatestNonce;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.time.LazyThread;
import io.apiwarden.core.token.SenderConstraint;
import io.apiwarden.core.token.TokenEndpoint;
import io.apiwarden.core.token.store.redis.RedisDpopNonce;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.Executor;

/**
 * How an API's tokens are bound to a key of the agent's: DPoP when {@code apiwarden.dpop.enabled}, its servers'
 * nonces shared with the fleet when the store is a Redis. The JOSE library loads here, and only when DPoP is on.
 */
final class SenderConstraints {
    private SenderConstraints() {}

    /**
     * DPoP for this API, its token requests proved too; null for bearer tokens. Should DPoP fail to be set up (it
     * cannot, once the configuration read the key), the calls go with bearer tokens and the log says why.
     */
    static SenderConstraint of(WardenConfig config, TokenEndpoint endpoint, Clock clock, ApiLog log) {
        if (config.dpop().isEmpty()) {
            return null;
        }
        try {
            // One thread for both servers' nonces: a read or a write is one short command, and rare.
            Executor io = config.redisStore().isPresent() ? new LazyThread("apiwarden-dpop-nonce") : null;
            Dpop dpop = Dpop.create(
                    config.dpop().get(),
                    clock,
                    latestNonce(config, config.tokenUrl().orElse(null), true, io, clock, log),
                    latestNonce(config, config.scope().baseUrl(), false, io, clock, log));
            if (endpoint != null) {
                endpoint.proveWith(dpop.tokenRequests());
            }
            return dpop;
        } catch (RuntimeException | LinkageError e) {
            log.error(
                    "DPoP could not be set up for the API " + config.name()
                            + "; its tokens go as bearer tokens, which a server requiring DPoP refuses",
                    e);
            return null;
        }
    }

    /**
     * The latest nonce of {@code server}: shared through the Redis store when there is one, so the fleet learns it
     * once; this JVM's own otherwise (a token file shares the tokens of one host's JVMs, not their nonces).
     */
    private static LatestNonce latestNonce(
            WardenConfig config, URI server, boolean tokenEndpoint, Executor io, Clock clock, ApiLog log) {
        if (config.redisStore().isEmpty() || server == null) {
            return LatestNonce.local();
        }
        RedisStoreSettings settings = config.redisStore().get();
        try {
            return LatestNonce.shared(
                    new RedisDpopNonce(settings, settings.dpopNonceKey(server, tokenEndpoint)),
                    io,
                    clock,
                    settings.timeout(),
                    log);
        } catch (RuntimeException | LinkageError e) {
            log.error("DPoP nonces cannot be shared through " + settings.describe() + "; this JVM learns its own", e);
            return LatestNonce.local();
        }
    }
}
