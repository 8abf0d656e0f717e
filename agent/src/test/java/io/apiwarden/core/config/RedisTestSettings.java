package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

/** Settings for the tests, read the way the agent reads them. */
public final class RedisTestSettings {
    private RedisTestSettings() {}

    /** The settings for {@code apiwarden.store=url} and further properties as key, value pairs. */
    public static RedisStoreSettings of(String url, String... more) {
        RedisStoreSettings.Parsed parsed = parse(url, more);
        assertThat(parsed.problems()).isEmpty();
        return parsed.settings();
    }

    /** {@code settings} with the password read from {@code file} again at every new connection (no check interval). */
    public static RedisStoreSettings followingPasswordFile(RedisStoreSettings settings, java.nio.file.Path file) {
        return settings.followingPasswordFile("apiwarden.store.password-file", file, java.time.Duration.ZERO);
    }

    public static RedisStoreSettings.Parsed parse(String url, String... more) {
        Map<String, String> properties = new HashMap<>();
        properties.put("apiwarden.store", url);
        for (int i = 0; i < more.length; i += 2) {
            properties.put(more[i], more[i + 1]);
        }
        return RedisStoreSettings.parse(properties::get);
    }
}
