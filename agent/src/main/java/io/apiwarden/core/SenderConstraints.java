package io.apiwarden.core;

import io.apiwarden.core.config.ConfigProperty;
import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.dpop.Dpop;
import io.apiwarden.core.dpop.DpopKey;
import io.apiwarden.core.dpop.LatestNonce;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.time.LazyThread;
import io.apiwarden.core.token.SenderConstraint;
import io.apiwarden.core.token.TokenEndpoint;
import io.apiwarden.core.token.store.redis.RedisDpopNonce;
import java.io.IOException;
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
            ReloadableSecret<DpopKey> keys = keys(config, clock, log);
            Dpop dpop = config.redisStore().isPresent()
                    ? withFleetNonces(config, keys, clock, log)
                    : Dpop.create(keys, clock, LatestNonce.local(), LatestNonce.local());
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
     * The DPoP key, its file followed as it changes: looked at when a token request starts and the check interval
     * has passed (never on an API call), read again only when it looks changed. A new key binds the tokens asked
     * for from then on; a file that turns bad keeps the key before it, with one warning ({@link ReloadableSecret}).
     */
    private static ReloadableSecret<DpopKey> keys(WardenConfig config, Clock clock, ApiLog log) {
        String property = ClientAuthenticators.key(config, ConfigProperty.DPOP_KEY_FILE);
        DpopKey first = config.dpop().get();
        if (config.dpopKeyFile().isEmpty()) {
            return ReloadableSecret.fixed(property, first);
        }
        String algorithm = config.dpopAlgorithm().orElse(null);
        try {
            return ClientAuthenticators.follow(
                    config,
                    ConfigProperty.DPOP_KEY_FILE,
                    config.dpopKeyFile().get(),
                    pem -> DpopKey.parse(pem, algorithm),
                    clock);
        } catch (IOException e) {
            log.warn(property + " changed since start-up and cannot be used (" + ClientAuthenticators.why(e)
                    + "); the key read at start-up is used and the file is not followed");
            return ReloadableSecret.fixed(property, first);
        }
    }

    /**
     * DPoP whose latest nonces, the token endpoint's and the API's, are shared through the Redis store, so the
     * fleet learns each once. Should that fail to be set up, each JVM learns its own, as without a store. (A
     * refresh-token file shares the tokens of one host's JVMs, not their nonces.)
     */
    private static Dpop withFleetNonces(WardenConfig config, ReloadableSecret<DpopKey> keys, Clock clock, ApiLog log) {
        RedisStoreSettings settings = config.redisStore().get();
        LatestNonce tokenEndpoint = LatestNonce.local();
        LatestNonce api;
        try {
            // One thread and one connection for both: a read or a write is one short command, and rare.
            Executor io = new LazyThread("apiwarden-dpop-nonce");
            RedisDpopNonce apiStore = new RedisDpopNonce(
                    settings, settings.dpopNonceKey(config.scope().baseUrl(), false));
            api = LatestNonce.shared(apiStore, io, clock, settings.timeout(), log);
            if (config.tokenUrl().isPresent()) {
                RedisDpopNonce tokenStore =
                        apiStore.at(settings.dpopNonceKey(config.tokenUrl().get(), true));
                tokenEndpoint = LatestNonce.shared(tokenStore, io, clock, settings.timeout(), log);
            }
        } catch (RuntimeException | LinkageError e) {
            log.error("DPoP nonces cannot be shared through " + settings.describe() + "; this JVM learns its own", e);
            tokenEndpoint = LatestNonce.local();
            api = LatestNonce.local();
        }
        return Dpop.create(keys, clock, tokenEndpoint, api);
    }
}
