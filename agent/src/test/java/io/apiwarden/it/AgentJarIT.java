package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
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

    /**
     * The classes a managed call loads are read without inflating (docs/benchmarks.md: ~40 ms of CPU at start-up); the
     * bundled libraries stay compressed, or the jar would more than double. The manifest comes first, where readers of a
     * jar as a stream look for it.
     */
    @Test
    void theFirstCallsClassesAreStoredAndTheBundledLibrariesDeflated() throws Exception {
        try (JarFile jar = new JarFile(AgentJvm.agentJar().toFile())) {
            assertThat(jar.stream().limit(2).map(JarEntry::getName))
                    .containsExactly("META-INF/", "META-INF/MANIFEST.MF");
            assertThat(jar.stream()
                            .filter(e -> e.getName().endsWith(".class"))
                            .filter(e -> !e.getName().startsWith("io/apiwarden/shaded/")
                                    || e.getName().startsWith("io/apiwarden/shaded/net/bytebuddy/jar/asm/")
                                    || e.getName().startsWith("io/apiwarden/shaded/com/google/gson/stream/")))
                    .hasSizeGreaterThan(500)
                    .allMatch(e -> e.getMethod() == ZipEntry.STORED, "is stored");
            assertThat(jar.stream()
                            .filter(e -> e.getName().startsWith("io/apiwarden/shaded/io/opentelemetry/")
                                    || e.getName().startsWith("io/apiwarden/shaded/redis/")
                                    || e.getName().startsWith("io/apiwarden/shaded/com/nimbusds/"))
                            .filter(e -> e.getName().endsWith(".class")))
                    .isNotEmpty()
                    .allMatch(e -> e.getMethod() == ZipEntry.DEFLATED, "is deflated");
        }
    }
}
