package io.apiwarden.core;

import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.telemetry.Telemetry;
import java.net.http.HttpClient;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One token request made as the agent makes it, from system properties: run by {@link JoseLoadingTest} in a class
 * loader of its own, which sees every class it loads. Public with a public constructor, for that loader.
 */
public final class TokenRequestScenario implements Function<Map<String, String>, String> {
    @Override
    public String apply(Map<String, String> properties) {
        try {
            WardenConfig config = WardenConfig.from(properties::get, Map.of());
            Warden warden = Warden.create(config, tls -> HttpClient.newHttpClient(), Telemetry.NOOP);
            return warden.tokens().tokenForRequest().get(10, TimeUnit.SECONDS) == null ? null : "a token";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
