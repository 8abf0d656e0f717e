package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.ConfigProperty;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The client modules keep the switches users already have, and each is documented. */
class ClientModulesTest {

    @Test
    void theModulesAreNamedAsTheSwitchesUsersAlreadyHave() {
        // The first four keep their names; modules added since come after them.
        assertThat(ClientModules.names())
                .startsWith("jdk-http-client", "okhttp", "reactor-netty", "apache-httpclient")
                .contains("jetty-httpclient");
        assertThat(ConfigProperty.CLIENT_ENABLED.keyFor("apache-httpclient"))
                .isEqualTo("apiwarden.instrumentation.apache-httpclient.enabled");
        assertThat(ConfigProperty.CLIENT_ENABLED.envNameFor("reactor-netty"))
                .isEqualTo("APIWARDEN_INSTRUMENTATION_REACTOR_NETTY_ENABLED");
    }

    @Test
    void everyModuleIsNamedInTheRowOfTheClientSwitch() throws Exception {
        String row = Files.readString(Paths.get("..", "docs", "configuration.md"))
                .lines()
                .filter(l -> l.startsWith("| `" + ConfigProperty.CLIENT_ENABLED.key() + "` |"))
                .findFirst()
                .orElseThrow();
        for (ClientModule module : ClientModules.ALL) {
            assertThat(row).contains("`" + module.name() + "`");
        }
    }

    @Test
    void theWarningAndTheHelpListTheClientsInProse() {
        assertThat(ClientModules.either(List.of("a", "b", "c"))).isEqualTo("a, b or c");
        assertThat(ClientModules.either(List.of("a"))).isEqualTo("a");
    }
}
