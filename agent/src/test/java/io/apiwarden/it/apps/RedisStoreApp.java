package io.apiwarden.it.apps;

import io.apiwarden.core.config.RedisStoreSettings;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.core.token.store.redis.RedisTokenStore;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * Uses the agent jar's Redis store the way the agent does when {@code apiwarden.store} names a Redis: on the
 * first argument's port (a live Redis) a write, a read and a lease; on the second's (nobody listens) a read.
 * Then logs through the bundled SLF4J at error level. Prints {@code WROTE}, {@code READ}, {@code LEASED},
 * {@code UNAVAILABLE message} and {@code LOGGER class}.
 */
public final class RedisStoreApp {
    private RedisStoreApp() {}

    public static void main(String[] args) throws Exception {
        try (TokenStore live = store(args[0])) {
            System.out.println(
                    "WROTE " + live.compareAndSet(new TokenState(1, "access-app", null, null, "refresh-app")));
            System.out.println("READ " + live.read());
            TokenStore.Lease lease = live.tryLease(Duration.ofSeconds(30));
            System.out.println("LEASED " + (lease != null) + " " + (lease != null && lease.renew()));
            lease.release();
        }
        try (TokenStore dead = store(args[1])) {
            dead.read();
            System.out.println("READ from a dead port");
        } catch (StoreUnavailableException e) {
            System.out.println("UNAVAILABLE " + e.getMessage());
        }
        // The relocated SLF4J, as Jedis reaches it: whatever Jedis logs must not reach the app's output.
        Class<?> factory = Class.forName("io.apiwarden.shaded.org.slf4j.LoggerFactory");
        Object logger = factory.getMethod("getLogger", String.class).invoke(null, "redis.probe");
        logger.getClass().getMethod("error", String.class).invoke(logger, "probe-from-the-bundled-slf4j");
        System.out.println("LOGGER " + logger.getClass().getName());
    }

    private static TokenStore store(String port) {
        RedisStoreSettings settings = RedisStoreSettings.parse(
                        Map.of("apiwarden.store", "redis://127.0.0.1:" + port, "apiwarden.store.timeout", "2s")::get)
                .settings();
        return new RedisTokenStore(settings, URI.create("https://auth.example.com/token"), "app");
    }
}
