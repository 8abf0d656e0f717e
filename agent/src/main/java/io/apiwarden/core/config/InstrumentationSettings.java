package io.apiwarden.core.config;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/** Which HTTP clients the agent manages, and whether calls through others are named in a warning. */
public final class InstrumentationSettings {
    /** Each managed client's name (as in {@code apiwarden.instrumentation.<client>.enabled}) to whether it is managed. */
    final Map<String, Boolean> clientsEnabled;

    final boolean unmanagedWarningsEnabled;

    InstrumentationSettings(SectionReader r, Collection<String> clients) {
        unmanagedWarningsEnabled = r.bool(ConfigProperty.UNMANAGED_WARNINGS_ENABLED);
        Map<String, Boolean> enabled = new TreeMap<>();
        ConfigProperty p = ConfigProperty.CLIENT_ENABLED;
        for (String client : clients) {
            String value = r.raw(p.keyFor(client), p.envNameFor(client));
            enabled.put(
                    client,
                    r.bool(
                            value == null ? p.defaultValue() : value,
                            p.keyFor(client) + " (or " + p.envNameFor(client) + ")",
                            p.defaultValue()));
        }
        clientsEnabled = Map.copyOf(enabled);
    }

    /** Whether the client named {@code client} (as in its switch) is managed. */
    public boolean clientEnabled(String client) {
        Boolean on = clientsEnabled.get(client);
        if (on == null) {
            throw new IllegalArgumentException("the configuration was read without the switch of the client " + client);
        }
        return on;
    }

    public boolean unmanagedWarningsEnabled() {
        return unmanagedWarningsEnabled;
    }
}
