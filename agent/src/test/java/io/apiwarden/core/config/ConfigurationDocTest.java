package io.apiwarden.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** docs/configuration.md documents every property the agent reads, under both its names. */
class ConfigurationDocTest {

    @Test
    void everyPropertyIsDocumentedWithItsEnvironmentVariableAndDefault() throws Exception {
        Path doc = Paths.get("..", "docs", "configuration.md");
        String text = Files.readString(doc);
        for (ConfigProperty p : ConfigProperty.values()) {
            String row = text.lines()
                    .filter(l -> l.startsWith("| `" + p.key() + "` |"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(p.key() + " has no row in " + doc));
            assertThat(row).contains("`" + p.envName() + "`");
            if (p.defaultValue() != null) {
                assertThat(row).contains("`" + p.defaultValue() + "`");
            }
        }
    }
}
