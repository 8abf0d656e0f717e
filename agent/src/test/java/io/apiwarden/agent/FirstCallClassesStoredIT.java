package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * Every class the warm-up loads ahead for a managed call is stored in the agent's jar, not deflated: the jar's build
 * names them by patterns (agent/pom.xml, {@code store-first-call-classes}), and a class added to the warm-up's list
 * that those patterns miss would be inflated on every start again. OpenTelemetry's classes, loaded with tracing on and
 * off the app's path, stay deflated with the other bundled libraries.
 */
class FirstCallClassesStoredIT {

    @Test
    void everyClassTheWarmUpLoadsAheadIsStoredInTheJar() throws Exception {
        // The list as the jar's classes make it (failsafe runs against the shaded jar: relocated names) or as the
        // compiled classes do (the bundled libraries' own names).
        List<String> entries = FirstCallClasses.names(true, true).stream()
                .filter(name -> !name.startsWith("io.opentelemetry.")
                        && !name.startsWith("io.apiwarden.shaded.io.opentelemetry."))
                .map(name -> (name.startsWith("io.apiwarden.") ? name : "io.apiwarden.shaded." + name).replace('.', '/')
                        + ".class")
                .collect(Collectors.toList());
        assertThat(entries).hasSizeGreaterThan(150);

        try (JarFile jar = new JarFile(System.getProperty("apiwarden.it.agent-jar"))) {
            assertThat(entries).allSatisfy(entry -> assertThat(jar.getJarEntry(entry))
                    .as(entry)
                    .isNotNull()
                    .extracting(ZipEntry::getMethod)
                    .isEqualTo(ZipEntry.STORED));
        }
    }
}
