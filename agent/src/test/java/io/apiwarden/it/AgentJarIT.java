package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The one artifact a user needs: an agent manifest, and no bundled class outside the agent's own packages. */
class AgentJarIT {

    @Test
    void theManifestDeclaresTheAgentEntryPoints() throws Exception {
        try (JarFile jar = new JarFile(AgentJvm.agentJar().toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo("io.apiwarden.agent.ApiWardenAgent");
            assertThat(main.getValue("Agent-Class")).isEqualTo("io.apiwarden.agent.ApiWardenAgent");
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
        }
    }

    @Test
    void everyBundledClassIsRelocatedUnderTheAgentsPackage() throws Exception {
        try (JarFile jar = new JarFile(AgentJvm.agentJar().toFile())) {
            assertThat(jar.stream()
                            .map(JarEntry::getName)
                            .filter(n -> n.endsWith(".class"))
                            .collect(Collectors.toList()))
                    .isNotEmpty()
                    .allMatch(n -> n.startsWith("io/apiwarden/"), "lies under io/apiwarden/");
            assertThat(jar.stream().map(JarEntry::getName).filter(n -> n.startsWith("io/apiwarden/shaded/")))
                    .anyMatch(n -> n.startsWith("io/apiwarden/shaded/net/bytebuddy/jar/asm/"))
                    .anyMatch(n -> n.startsWith("io/apiwarden/shaded/com/google/gson/stream/"))
                    .noneMatch(n -> n.startsWith("io/apiwarden/shaded/com/fasterxml/"));
        }
    }
}
