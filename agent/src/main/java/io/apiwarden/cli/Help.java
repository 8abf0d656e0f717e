package io.apiwarden.cli;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.ClientModules;
import io.apiwarden.core.config.ConfigProperty;
import java.util.stream.Collectors;

/** The help text, with every property drawn from {@link ConfigProperty}: it cannot drift from the code. */
final class Help {
    private Help() {}

    static String text() {
        StringBuilder b = new StringBuilder()
                .append("API Warden ")
                .append(Main.version())
                .append("\n\n")
                .append("A Java agent that manages every call a JVM app makes to one OAuth 2.0 API, through\n")
                .append(ClientModules.either(ClientModules.ALL.stream()
                        .map(ClientModule::displayName)
                        .collect(Collectors.toList())))
                .append(":\nit attaches the bearer token, refreshes it when the API says it is invalid and resends\n")
                .append("once, and backs off when the global rate limit is hit.\n\n")
                .append("Attach it at start-up:\n")
                .append("  java -javaagent:apiwarden-agent.jar -Dapiwarden.base-url=https://api.example.com/v1 \\\n")
                .append(
                        "       -Dapiwarden.auth-url=https://auth.example.com -Dapiwarden.refresh-token-file=/path/token -jar app.jar\n\n")
                .append("Commands:\n")
                .append("  java -jar apiwarden-agent.jar help                      this text\n")
                .append(
                        "  java -jar apiwarden-agent.jar doctor                    check the configuration against the real API\n")
                .append("  java -jar apiwarden-agent.jar attach <pid> [k=v ...]    load the agent into a running JVM\n")
                .append("  java -jar apiwarden-agent.jar version                   the version\n\n")
                .append("Properties (system property, or the environment variable beside it; the property wins):\n");
        for (ConfigProperty p : ConfigProperty.values()) {
            b.append("  ")
                    .append(p.key())
                    .append("  (")
                    .append(p.envName())
                    .append(")\n")
                    .append("      ")
                    .append(p.description())
                    .append('\n')
                    .append("      default: ")
                    .append(p.defaultValue() == null ? "none" : p.defaultValue())
                    .append(p.secret() ? "; a secret: never printed" : "")
                    .append('\n');
        }
        b.append("\nManaged clients (" + ConfigProperty.CLIENT + " in " + ConfigProperty.CLIENT_ENABLED.key() + "):\n");
        for (ClientModule module : ClientModules.ALL) {
            b.append("  ")
                    .append(module.name())
                    .append("  ")
                    .append(module.displayName())
                    .append('\n');
        }
        b.append(
                        "\nDurations: 500ms, 2s, 1m, 1h. Telemetry export: the standard otel.* properties and OTEL_* variables.\n")
                .append("Reference: docs/configuration.md, docs/telemetry.md, docs/troubleshooting.md.\n");
        return b.toString();
    }
}
