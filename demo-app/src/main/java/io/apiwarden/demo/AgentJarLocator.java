package io.apiwarden.demo;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Finds the agent jar for the demo: an explicit path wins; otherwise the usual build output,
 * relative to the working directory (the project root in the README's command) or to the demo
 * jar itself (so the demo also starts from another directory).
 */
final class AgentJarLocator {
    /** Names the agent jar explicitly; when set, no other place is tried. */
    static final String AGENT_JAR_PROPERTY = "apiwarden.demo.agent-jar";
    /** Where the agent module's build puts the jar, relative to the project root. */
    static final String AGENT_JAR_IN_PROJECT = "agent/target/apiwarden-agent.jar";
    /** The demo jar lives in {@code demo-app/target}: two levels below the project root. */
    static final String AGENT_JAR_FROM_DEMO_JAR_DIR = "../../" + AGENT_JAR_IN_PROJECT;

    static final String BUILD_HINT = "build it from the project root with ./mvnw -q -DskipTests package";

    /** The agent jar cannot be found; the message lists where it was looked for and what to do. */
    static final class AgentJarNotFoundException extends Exception {
        private static final long serialVersionUID = 1L;

        AgentJarNotFoundException(String message) {
            super(message);
        }
    }

    private AgentJarLocator() {}

    /**
     * @param explicitPath   the value of {@link #AGENT_JAR_PROPERTY}, or null
     * @param workingDir     the directory the demo was started in
     * @param demoCodeSource the demo jar, or the classes directory when run from the build
     */
    static Path locate(String explicitPath, Path workingDir, Path demoCodeSource) throws AgentJarNotFoundException {
        if (explicitPath != null && !explicitPath.trim().isEmpty()) {
            Path jar = workingDir.resolve(explicitPath.trim()).normalize();
            if (Files.isRegularFile(jar)) {
                return jar;
            }
            throw new AgentJarNotFoundException("API Warden agent jar not found at " + jar + " (set by -D"
                    + AGENT_JAR_PROPERTY + "): " + BUILD_HINT + ", or correct the property");
        }
        List<Path> candidates = new ArrayList<>();
        candidates.add(workingDir.resolve(AGENT_JAR_IN_PROJECT).normalize());
        if (demoCodeSource != null && demoCodeSource.getParent() != null) {
            candidates.add(demoCodeSource
                    .getParent()
                    .resolve(AGENT_JAR_FROM_DEMO_JAR_DIR)
                    .normalize());
        }
        for (Path candidate : candidates) {
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AgentJarNotFoundException("API Warden agent jar not found; looked at "
                + candidates.stream().map(Path::toString).distinct().collect(Collectors.joining(" and "))
                + ". " + Character.toUpperCase(BUILD_HINT.charAt(0)) + BUILD_HINT.substring(1)
                + ", or point -D" + AGENT_JAR_PROPERTY + "=<path> at the jar.");
    }

    /** The demo jar when run with {@code java -jar}, or the classes directory when run from a build or IDE. */
    static Path demoCodeSource() {
        try {
            return Paths.get(AgentJarLocator.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the demo's classes are loaded from: " + e, e);
        }
    }
}
