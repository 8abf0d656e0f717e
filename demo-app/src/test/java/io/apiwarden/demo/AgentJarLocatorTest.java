package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentJarLocatorTest {
    @TempDir
    Path project;

    @Test
    void explicitPathWinsOverTheBuildOutput() throws Exception {
        Path explicit = touch(project.resolve("elsewhere/agent.jar"));
        touch(project.resolve("agent/target/apiwarden-agent.jar"));

        assertThat(AgentJarLocator.locate(explicit.toString(), project, null)).isEqualTo(explicit);
    }

    @Test
    void relativeExplicitPathIsResolvedAgainstTheWorkingDirectory() throws Exception {
        Path explicit = touch(project.resolve("libs/agent.jar"));

        assertThat(AgentJarLocator.locate("libs/agent.jar", project, null)).isEqualTo(explicit);
    }

    @Test
    void missingExplicitJarIsAnErrorAndNothingElseIsTried() throws IOException {
        touch(project.resolve("agent/target/apiwarden-agent.jar"));

        assertThatThrownBy(() -> AgentJarLocator.locate("missing.jar", project, null))
                .isInstanceOf(AgentJarLocator.AgentJarNotFoundException.class)
                .hasMessageContainingAll(
                        project.resolve("missing.jar").toString(),
                        "-Dapiwarden.demo.agent-jar",
                        "./mvnw -q -DskipTests package");
    }

    @Test
    void findsTheBuildOutputUnderTheWorkingDirectory() throws Exception {
        Path jar = touch(project.resolve("agent/target/apiwarden-agent.jar"));

        assertThat(AgentJarLocator.locate(null, project, null)).isEqualTo(jar);
    }

    @Test
    void findsTheBuildOutputNextToTheDemoJarFromAnyWorkingDirectory() throws Exception {
        Path jar = touch(project.resolve("agent/target/apiwarden-agent.jar"));
        Path demoJar = touch(project.resolve("demo-app/target/apiwarden-demo.jar"));

        assertThat(AgentJarLocator.locate(" ", project.resolve("demo-app"), demoJar))
                .isEqualTo(jar);
    }

    @Test
    void findsItFromTheClassesDirectoryOfABuildToo() throws Exception {
        Path jar = touch(project.resolve("agent/target/apiwarden-agent.jar"));
        Path classes = Files.createDirectories(project.resolve("demo-app/target/classes"));

        assertThat(AgentJarLocator.locate(null, project.resolve("demo-app"), classes))
                .isEqualTo(jar);
    }

    @Test
    void missingJarErrorListsEveryPlaceAndSaysHowToBuildIt() {
        Path demoJar = project.resolve("demo-app/target/apiwarden-demo.jar");

        assertThatThrownBy(() -> AgentJarLocator.locate(null, project.resolve("somewhere"), demoJar))
                .isInstanceOf(AgentJarLocator.AgentJarNotFoundException.class)
                .hasMessageContainingAll(
                        project.resolve("somewhere/agent/target/apiwarden-agent.jar")
                                .toString(),
                        project.resolve("agent/target/apiwarden-agent.jar").toString(),
                        "Build it from the project root with ./mvnw -q -DskipTests package");
    }

    private static Path touch(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, new byte[] {1});
    }
}
