package io.apiwarden.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code java -jar apiwarden-agent.jar doctor} against the simulated API, well and badly configured. */
class DoctorIT {

    private static Path agentJar() {
        return Paths.get(System.getProperty(
                        AgentJarLocator.AGENT_JAR_PROPERTY, "../" + AgentJarLocator.AGENT_JAR_IN_PROJECT))
                .toAbsolutePath()
                .normalize();
    }

    /** Runs the doctor with these properties; returns its exit code and output. */
    private static Result doctor(String... properties) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        for (String p : properties) {
            command.add("-D" + p);
        }
        command.add("-jar");
        command.add(agentJar().toString());
        command.add("doctor");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), output);
    }

    private static final class Result {
        final int exitCode;
        final String output;

        Result(int exitCode, String output) {
            this.exitCode = exitCode;
            this.output = output;
        }
    }

    private static Path tokenFile(SimulatedApi api) throws Exception {
        return DemoLauncher.writeSecret(
                DemoLauncher.ownerOnlyFolder().resolve("refresh-token"), api.currentRefreshToken());
    }

    @Test
    void aWellConfiguredAgentPassesWithoutPrintingATokenOrSecret() throws Exception {
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start()) {
            Path file = tokenFile(api);
            String before = api.currentRefreshToken();

            Result r = doctor(
                    "apiwarden.base-url=" + api.baseUrl(),
                    "apiwarden.auth-url=" + api.authUrl(),
                    "apiwarden.refresh-token-file=" + file);

            assertThat(r.exitCode).as(r.output).isZero();
            // The doctor asks for the token itself first; the refresh a call would make is said on a line of its own.
            assertThat(r.output)
                    .containsAnyOf("OK   token request (refresh_token) at " + api.authUrl(), "token refresh: success");
            assertThat(r.output)
                    .contains(
                            "-> 200 (2xx, success)",
                            "the token works",
                            "HEAD " + api.baseUrl(),
                            "x-ratelimit-limit",
                            "request-id=",
                            "rate limit as the agent reads it: X-RateLimit-*: limit ",
                            "OK: the agent can work with this API");
            assertThat(r.output).doesNotContain(before, api.currentRefreshToken());
            assertThat(Files.readString(file).trim())
                    .as("the rotated refresh token was kept")
                    .isEqualTo(api.currentRefreshToken());
            Files.delete(file);
        }
    }

    @Test
    void aWrongTokenUrlIsNamed() throws Exception {
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start()) {
            Path file = tokenFile(api);

            Result r = doctor(
                    "apiwarden.base-url=" + api.baseUrl(),
                    "apiwarden.token-url=" + api.authUrl() + "/oauth2/token",
                    "apiwarden.refresh-token-file=" + file);

            assertThat(r.exitCode).as(r.output).isEqualTo(1);
            assertThat(r.output).containsAnyOf("FAIL token request (refresh_token)", "token refresh: failed");
            assertThat(r.output).contains("-> 401", "no new one could be had", "HTTP 404");
            Files.delete(file);
        }
    }

    @Test
    void aRevokedRefreshTokenIsNamedWithWhatToDo() throws Exception {
        try (SimulatedApi api = new SimulatedApi(SimulatedApi.Settings.builder().build()).start()) {
            Path file = tokenFile(api);
            api.revokeRefreshTokens();

            Result r = doctor(
                    "apiwarden.base-url=" + api.baseUrl(),
                    "apiwarden.auth-url=" + api.authUrl(),
                    "apiwarden.refresh-token-file=" + file);

            assertThat(r.exitCode).as(r.output).isEqualTo(1);
            assertThat(r.output).containsAnyOf("FAIL token request (refresh_token)", "token refresh: refused");
            assertThat(r.output).contains("invalid_grant", "give the agent a new refresh token");
            Files.delete(file);
        }
    }

    @Test
    void anApiBehindAFailingProxyIsToldApartFromTheApplication() throws Exception {
        try (SimulatedApi api = new SimulatedApi(
                        SimulatedApi.Settings.builder().proxyFailEvery(1).build())
                .start()) {
            Path file = tokenFile(api);

            Result r = doctor(
                    "apiwarden.base-url=" + api.baseUrl(),
                    "apiwarden.auth-url=" + api.authUrl(),
                    "apiwarden.refresh-token-file=" + file);

            assertThat(r.exitCode).as(r.output).isEqualTo(1);
            assertThat(r.output).contains("(5xx, proxy_error)", "via=1.1 simulated-edge", "produced by a proxy or CDN");
            Files.delete(file);
        }
    }

    @Test
    void aBrokenConfigurationIsListedAndExits2() throws Exception {
        Result r = doctor("apiwarden.base-url=ftp://nowhere", "apiwarden.access-token=x");

        assertThat(r.exitCode).as(r.output).isEqualTo(2);
        assertThat(r.output).contains("FAIL configuration:", "apiwarden.base-url", "http or https");
    }
}
