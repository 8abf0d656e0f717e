package io.apiwarden.testing;

import io.apiwarden.core.Warden;
import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.ConfigException;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.TokenEndpoint;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds configurations and runtimes for tests from property maps. */
public final class TestWardens {
    private TestWardens() {}

    /** Parses {@code keyValues} (key, value, key, value...) as system properties, with no environment. */
    public static WardenConfig config(String... keyValues) {
        Map<String, String> props = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        try {
            // The keys are told as a JVM's system property names are, so that named APIs beside the first are seen.
            return AgentConfig.from(props::get, props.keySet(), Map.of(), List.of())
                    .first();
        } catch (ConfigException e) {
            throw new AssertionError("test configuration is invalid: " + e.getMessage(), e);
        }
    }

    public static Warden warden(WardenConfig config, TokenEndpoint endpoint, DelayScheduler scheduler, Clock clock) {
        return new Warden(config, endpoint, scheduler, clock);
    }
}
