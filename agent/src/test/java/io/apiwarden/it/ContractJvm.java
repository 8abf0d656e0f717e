package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.adapters.ClientAdapterContract;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A JVM started with the agent and the contract's properties, which runs the agent-attached half of
 * {@link ClientAdapterContract} ({@link ClientAdapterContractAgentIT}, through {@link ContractLauncher}). The
 * agent reads the API's URL at start, so each set of properties needs a JVM of its own; started from a
 * Failsafe test, the contract runs beside the other child-JVM tests rather than before them (it spends most
 * of its minute waiting out back-offs on real time).
 */
final class ContractJvm {
    /** The contract takes about a minute; ten mean something hangs. */
    private static final long TIMEOUT_MINUTES = 10;
    /** Which faces run: a pattern of their class names ({@code -Dit.contract-faces=Jdk.*}), all by default. */
    private static final String FACES_PROPERTY = "apiwarden.it.contract-faces";

    private ContractJvm() {}

    /**
     * Runs the cases that match {@code tags} with the suite's properties and {@code extra}; fails with what the
     * launcher printed unless every case passed (a case that passed when run again is printed as a flake).
     */
    static void runAndAssert(String name, String tags, Map<String, String> extra)
            throws IOException, InterruptedException {
        runAndAssert(name, tags, extra, ClientAdapterContractAgentIT.class);
    }

    /**
     * As above, the faces of {@code faces} ({@code @Nested} subclasses of {@link ClientAdapterContractAgentIT}'s
     * {@code WithTheAgent}): for a module whose class path has another version of a client.
     */
    static void runAndAssert(String name, String tags, Map<String, String> extra, Class<?> faces)
            throws IOException, InterruptedException {
        int port = freePort();
        Map<String, String> properties = new LinkedHashMap<>(ClientAdapterContract.SUITE_PROPERTIES);
        properties.putAll(extra);
        properties.put(AgentManagement.PORT_PROPERTY, Integer.toString(port));
        properties.put("apiwarden.base-url", "http://localhost:" + port + "/api/v1");
        properties.put("apiwarden.token-url", "http://localhost:" + port + "/auth/token");
        properties.put("apiwarden.access-token", "contract-access-0");
        properties.put("apiwarden.refresh-token", "contract-refresh-0");
        // A second API nested in the first, for the case of a redirect into another API's base.
        properties.put("apiwarden.api.admin.base-url", "http://localhost:" + port + "/api/v1/admin");
        properties.put("apiwarden.api.admin.access-token", "contract-admin-access-0");

        Path agentJar = AgentJvm.agentJar();
        // Beside Failsafe's own reports, in the module that runs it (Failsafe's working directory).
        Path reports = Paths.get("target", "failsafe-reports", name).toAbsolutePath();
        Files.createDirectories(reports);
        Path output = reports.resolve("output.txt");

        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-javaagent:" + agentJar);
        command.addAll(AgentJvm.TEST_JVM_OPTIONS);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        // Failsafe's JVM names the whole test class path here, as a class path of its own would.
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(ContractLauncher.class.getName());
        command.add(tags);
        command.add(reports.toString());
        command.add(System.getProperty(FACES_PROPERTY, ".*"));
        command.add(faces.getName());

        ProcessBuilder pb =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("APIWARDEN_") || k.startsWith("JAVA_TOOL_OPTIONS"));
        Process jvm = pb.start();
        boolean ended = jvm.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!ended) {
            jvm.destroyForcibly();
        }
        List<String> printed = Files.readAllLines(output, StandardCharsets.UTF_8);
        // The build's log shows the counts and any flake; the reports directory has the rest.
        printed.stream()
                .filter(line -> line.startsWith("contract with the agent") || line.startsWith("FLAKE"))
                .forEach(System.out::println);
        String said = printed.stream()
                .dropWhile(line -> !line.startsWith("contract with the agent"))
                .collect(Collectors.joining("\n"));
        assertThat(ended)
                .as("the contract's JVM ended within %d min (%s)", TIMEOUT_MINUTES, output)
                .isTrue();
        assertThat(jvm.exitValue())
                .as("the contract with the agent attached (%s; reports in %s):%n%s", tags, reports, said)
                .isZero();
    }

    /** A port nothing listens on now; the contract's JVM listens there for the whole run. */
    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
