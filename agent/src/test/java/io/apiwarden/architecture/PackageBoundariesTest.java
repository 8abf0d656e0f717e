package io.apiwarden.architecture;

import static org.assertj.core.api.Assertions.assertThat;

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
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent is one Maven module; this test keeps the boundaries a split would have the compiler
 * keep (see docs/architecture.md): it reads every class the module compiled and checks which of
 * the project's packages, and which client libraries, each one refers to.
 */
class PackageBoundariesTest {
    /** Package of the project to the set of the project's top-level areas it refers to, from the byte code. */
    private static Map<String, Set<String>> uses;
    /** Each package of core to the other packages of core it refers to. */
    private static Map<String, Set<String>> coreUses;
    /** The client slices, {@code io.apiwarden.clients.<client>}, and the library each is for (null: the JDK's own). */
    private static final Map<String, String> CLIENT_LIBRARIES = new TreeMap<>();

    static {
        CLIENT_LIBRARIES.put("jdk", null);
        CLIENT_LIBRARIES.put("huc", null);
        CLIENT_LIBRARIES.put("okhttp", "okhttp3");
        CLIENT_LIBRARIES.put("apache5", "httpclient5");
        CLIENT_LIBRARIES.put("apache4", "httpclient4");
        CLIENT_LIBRARIES.put("reactornetty", "reactor");
        CLIENT_LIBRARIES.put("vertx", "vertx");
        CLIENT_LIBRARIES.put("jetty", "jetty");
        CLIENT_LIBRARIES.put("micronaut", "micronaut");
        CLIENT_LIBRARIES.put("ktor", "ktor");
    }

    @BeforeAll
    static void readCompiledClasses() throws IOException, URISyntaxException {
        Path classes = Paths.get(io.apiwarden.core.Warden.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        uses = new TreeMap<>();
        coreUses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes.resolve("io/apiwarden"))) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                String internalName = classes.relativize(file).toString().replace('\\', '/');
                String from = area(internalName);
                Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
                String fromCore = corePackage(internalName);
                Set<String> toCore =
                        fromCore == null ? new TreeSet<>() : coreUses.computeIfAbsent(fromCore, k -> new TreeSet<>());
                try (InputStream in = Files.newInputStream(file)) {
                    // A writer as the remapper's target, so that method bodies are visited too.
                    new ClassReader(in)
                            .accept(
                                    new ClassRemapper(new ClassWriter(0), new Remapper(Opcodes.ASM9) {
                                        @Override
                                        public String map(String internalName) {
                                            String area = area(internalName);
                                            if (area != null && !area.equals(from)) {
                                                to.add(area);
                                            }
                                            String core = corePackage(internalName);
                                            if (core != null && !core.equals(fromCore)) {
                                                toCore.add(core);
                                            }
                                            return internalName;
                                        }
                                    }),
                                    0);
                }
            }
        }
    }

    /**
     * The area a class belongs to: the project's packages as {@code core}, {@code core.engine}, {@code agent},
     * a client slice's parts as {@code clients.okhttp.library}, {@code clients.okhttp.bridge},
     * {@code clients.okhttp.agent}; client libraries as {@code okhttp3}; other libraries and the JDK as null.
     */
    private static String area(String internalName) {
        if (internalName.startsWith("io/apiwarden/core/engine/")) {
            return "core.engine";
        }
        if (internalName.startsWith("io/apiwarden/shaded/")) {
            return null;
        }
        if (internalName.startsWith("io/apiwarden/clients/")) {
            String[] parts = internalName.split("/");
            return parts.length < 6 ? null : "clients." + parts[3] + "." + parts[4];
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
        if (internalName.startsWith("org/apache/http/")) {
            return "httpclient4";
        }
        if (internalName.startsWith("reactor/")) {
            return "reactor";
        }
        if (internalName.startsWith("io/vertx/")) {
            return "vertx";
        }
        if (internalName.startsWith("org/eclipse/jetty/")) {
            return "jetty";
        }
        if (internalName.startsWith("io/micronaut/")) {
            return "micronaut";
        }
        if (internalName.startsWith("io/ktor/")) {
            return "ktor";
        }
        return null;
    }

    /** The package of a class of core, as {@code core.token.store.redis}; null for a class outside core. */
    private static String corePackage(String internalName) {
        if (!internalName.startsWith("io/apiwarden/core/")) {
            return null;
        }
        return internalName
                .substring("io/apiwarden/".length(), internalName.lastIndexOf('/'))
                .replace('/', '.');
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
    void noPackageOfCoreDependsOnItselfThroughAnother() {
        for (String start : coreUses.keySet()) {
            assertThat(reachable(start))
                    .as("the packages of core that " + start + " depends on, directly or not")
                    .doesNotContain(start);
        }
    }

    private static Set<String> reachable(String start) {
        Set<String> seen = new TreeSet<>();
        List<String> next = new ArrayList<>(coreUses.getOrDefault(start, Set.of()));
        while (!next.isEmpty()) {
            String p = next.remove(next.size() - 1);
            if (seen.add(p)) {
                next.addAll(coreUses.getOrDefault(p, Set.of()));
            }
        }
        return seen;
    }

    @Test
    void everyClientSliceIsChecked() {
        Set<String> slices = new TreeSet<>();
        uses.keySet().stream().filter(a -> a.startsWith("clients.")).forEach(a -> slices.add(a.split("\\.")[1]));
        assertThat(slices)
                .as("a new client's slice is added to CLIENT_LIBRARIES with the library it is for")
                .isEqualTo(CLIENT_LIBRARIES.keySet());
    }

    @Test
    void eachClientsLibraryModeDependsOnCoreItsBridgeAndItsClientOnly() {
        // The glue is defined next to the app's client library: it may reach the bridge the agent calls it
        // through, never the agent itself (nor another client).
        CLIENT_LIBRARIES.forEach((client, library) ->
                assertThat(usesOf("clients." + client + ".library")).as(client).isSubsetOf(allowed(client, library)));
    }

    @Test
    void eachClientsAgentPartAddsOnlyTheSharedAgentKit() {
        CLIENT_LIBRARIES.forEach((client, library) -> {
            Set<String> allowed = allowed(client, library);
            allowed.add("clients." + client + ".library");
            allowed.add("agent");
            assertThat(usesOf("clients." + client + ".agent")).as(client).isSubsetOf(allowed);
        });
    }

    @Test
    void aBridgeDependsOnNothingOfTheProject() {
        CLIENT_LIBRARIES.keySet().stream()
                .filter(client -> uses.containsKey("clients." + client + ".bridge"))
                .forEach(client -> assertThat(usesOf("clients." + client + ".bridge"))
                        .as(client)
                        .isEmpty());
    }

    @Test
    void noClientSliceReachesAnother() {
        uses.forEach((area, used) -> {
            if (area.startsWith("clients.")) {
                String own = "clients." + area.split("\\.")[1] + ".";
                assertThat(used).as(area).allSatisfy(u -> assertThat(!u.startsWith("clients.") || u.startsWith(own))
                        .as(area + " uses " + u)
                        .isTrue());
            }
        });
    }

    /** Core, the slice's own bridge, and its client library. */
    private static Set<String> allowed(String client, String library) {
        Set<String> allowed = new TreeSet<>(List.of("core", "core.engine", "clients." + client + ".bridge"));
        if (library != null) {
            allowed.add(library);
        }
        return allowed;
    }

    @Test
    void theWatchOfUnmanagedClientsKnowsCoreOnlyAndNoClientLibrary() {
        assertThat(usesOf("unmanaged")).isSubsetOf("core");
    }

    @Test
    void telemetryImplementsCoresObserversAndKnowsNoClient() {
        assertThat(usesOf("telemetry"))
                .doesNotContain("okhttp3", "httpclient5", "reactor", "agent", "cli", "core.engine");
        assertThat(usesOf("telemetry")).noneMatch(area -> area.startsWith("clients."));
    }

    @Test
    void onlyTheClientsAgentPartsAndTheHelpDependOnTheAgentKit() {
        List<String> dependents = new ArrayList<>();
        uses.forEach((area, used) -> {
            boolean clientAgent = area.startsWith("clients.") && area.endsWith(".agent");
            // The help names the managed clients from the agent's list of client modules.
            if (!area.equals("agent") && !clientAgent && !area.equals("cli") && used.contains("agent")) {
                dependents.add(area);
            }
        });
        assertThat(dependents).as("packages that depend on the agent package").isEmpty();
    }
}
