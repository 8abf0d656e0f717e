package io.apiwarden.architecture;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent is one Maven module; this test keeps the boundaries a split would have the compiler
 * keep (see docs/architecture.md): it reads every class the module compiled and checks which of
 * the project's packages, and which client libraries, each one refers to.
 */
class PackageBoundariesTest {
    /** Package of the project to the set of the project's top-level areas it refers to, from the byte code. */
    private static Map<String, Set<String>> uses;

    @BeforeAll
    static void readCompiledClasses() throws IOException, URISyntaxException {
        Path classes = Paths.get(io.apiwarden.core.Warden.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/apiwarden"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String from = area(classes.relativize(file).toString().replace('\\', '/'));
                Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    // A writer as the remapper's target, so that method bodies are visited too.
                    new ClassReader(in).accept(new ClassRemapper(new ClassWriter(0), new Remapper() {
                        @Override
                        public String map(String internalName) {
                            String area = area(internalName);
                            if (area != null && !area.equals(from)) {
                                to.add(area);
                            }
                            return internalName;
                        }
                    }), 0);
                }
            }
        }
    }

    /**
     * The area a class belongs to: the project's packages as {@code core}, {@code core.engine},
     * {@code jdkhttp}, ...; client libraries as {@code okhttp3}; other libraries and the JDK as null.
     */
    private static String area(String internalName) {
        if (internalName.startsWith("io/apiwarden/core/engine/")) {
            return "core.engine";
        }
        if (internalName.startsWith("io/apiwarden/shaded/")) {
            return null;
        }
        if (internalName.startsWith("io/apiwarden/")) {
            String rest = internalName.substring("io/apiwarden/".length());
            int slash = rest.indexOf('/');
            return slash < 0 ? null : rest.substring(0, slash);
        }
        if (internalName.startsWith("okhttp3/")) {
            return "okhttp3";
        }
        if (internalName.startsWith("org/apache/hc/")) {
            return "httpclient5";
        }
        if (internalName.startsWith("reactor/")) {
            return "reactor";
        }
        return null;
    }

    private static Set<String> usesOf(String area) {
        assertThat(uses).containsKey(area);
        return uses.get(area);
    }

    @Test
    void theEngineAndTheRestOfCoreKnowNoClientAdapterAgentOrTelemetrySdk() {
        assertThat(usesOf("core")).isEmpty();
        assertThat(usesOf("core.engine")).isSubsetOf("core");
    }

    @Test
    void eachClientAdapterDependsOnCoreOnly() {
        assertThat(usesOf("jdkhttp")).isSubsetOf("core", "core.engine");
        // The OkHttp glue is defined next to the app's OkHttp: it may reach the bridge the agent
        // calls it through, never the agent itself (nor another adapter).
        assertThat(usesOf("okhttp")).isSubsetOf("core", "core.engine", "bridge", "okhttp3");
        // So is the Apache HttpClient 5 glue, beside the app's client.
        assertThat(usesOf("apachehttp")).isSubsetOf("core", "core.engine", "bridge", "httpclient5");
        // The same for the Reactor Netty glue, defined next to the app's Reactor Netty.
        assertThat(usesOf("reactornetty")).isSubsetOf("core", "core.engine", "bridge", "reactor");
    }

    @Test
    void theWatchOfUnmanagedClientsKnowsCoreOnlyAndNoClientLibrary() {
        assertThat(usesOf("unmanaged")).isSubsetOf("core");
    }

    @Test
    void theBridgeToTheGlueDependsOnNothingOfTheProject() {
        assertThat(usesOf("bridge")).isEmpty();
    }

    @Test
    void telemetryImplementsCoresObserversAndKnowsNoClient() {
        assertThat(usesOf("telemetry")).doesNotContain("jdkhttp", "okhttp", "okhttp3", "apachehttp", "httpclient5",
                "reactornetty", "reactor", "agent", "cli", "core.engine");
    }

    @Test
    void onlyTheAgentWeavesAndNothingDependsOnIt() {
        List<String> dependents = new ArrayList<>();
        uses.forEach((area, used) -> {
            if (!area.equals("agent") && used.contains("agent")) {
                dependents.add(area);
            }
        });
        assertThat(dependents).as("packages that depend on the agent package").isEmpty();
    }
}
