package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoLauncherTest {

    @Test
    void childJvmGetsTheAgentAndExactlyThePropertiesTheAgentReads() throws IOException {
        Path agentJar = Paths.get("/opt/agent.jar");
        Path classPath = Paths.get("/opt/apiwarden-demo.jar");
        Path tokenFile = Paths.get("/tmp/refresh-token.txt");
        Path accessFile = Paths.get("/tmp/access-token.txt");
        try (SimulatedApi api = new SimulatedApi(DemoLauncher.demoSettings()).start()) {
            List<String> command =
                    new DemoLauncher(agentJar, classPath, System.out).command(api, accessFile, tokenFile);

            assertThat(command.get(0))
                    .isEqualTo(Paths.get(System.getProperty("java.home"), "bin", "java")
                            .toString());
            assertThat(command)
                    .containsSubsequence(
                            "-javaagent:" + agentJar,
                            "-Dapiwarden.base-url=" + api.baseUrl(),
                            "-Dapiwarden.auth-url=" + api.authUrl(),
                            "-Dapiwarden.access-token-file=" + accessFile,
                            "-Dapiwarden.refresh-token-file=" + tokenFile,
                            "-Dapiwarden.backoff.initial-delay=200ms",
                            "-cp",
                            classPath.toString(),
                            "io.apiwarden.demo.DemoProgram");
            assertThat(String.join(" ", command))
                    .as("secrets stay off the command line")
                    .doesNotContain(api.currentRefreshToken())
                    .doesNotContain("-Dapiwarden.access-token=")
                    .doesNotContain("-Dapiwarden.refresh-token=");
        }
    }

    @Test
    void demoSettingsMakeTheProgramMeetBothErrorsOnce() {
        SimulatedApi.Settings settings = DemoLauncher.demoSettings();
        Duration pause = DemoLauncher.TOKEN_LIFETIME.plus(DemoLauncher.EXPIRY_MARGIN);

        assertThat(DemoProgram.BURST_SENDS + DemoProgram.BURST_ASYNC_CALLS)
                .as("the burst exceeds the global limit")
                .isGreaterThan(settings.rateLimit());
        assertThat(pause).as("the pause outlasts the token").isGreaterThan(settings.tokenLifetime());
        assertThat(pause).as("the second phase starts in a fresh window").isGreaterThan(settings.rateLimitWindow());
        assertThat(1 + 1 + DemoProgram.AFTER_PAUSE_ASYNC_CALLS)
                .as("401, resend and the rest fit into that window")
                .isLessThanOrEqualTo(settings.rateLimit());
        assertThat(settings.proxyFailEvery())
                .as("a proxy failure shows up, deterministically")
                .isEqualTo(DemoLauncher.PROXY_FAIL_EVERY);
        assertThat(settings.proxyFailureProbability()).isZero();
    }

    @Test
    void tokenFilesLiveInAFolderOnlyTheirOwnerCanOpenAndLeaveNothingBehind() throws IOException {
        Path dir = DemoLauncher.ownerOnlyFolder();
        try {
            Path file = DemoLauncher.writeSecret(dir.resolve("refresh-token"), "rt_secret");
            Files.writeString(dir.resolve(".refresh-token.state"), "{}");
            assertThat(Files.readString(file)).isEqualTo("rt_secret\n");
            assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
                    .isEqualTo("rwx------");
        } finally {
            DemoLauncher.deleteFolder(dir);
        }
        assertThat(dir).doesNotExist();
    }
}
