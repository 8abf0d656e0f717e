package io.apiwarden.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The fleet scene: {@link #REPLICAS} JVMs of one app, started together and given the same
 * refresh-token file, against the simulated API, which rotates the refresh token on every use
 * and refuses a used one with {@code invalid_grant}. Without a shared store they would race, and
 * all but one would be logged out; through the file they refresh once per expiry between them.
 */
final class FleetScene {
    static final int REPLICAS = 3;
    /** Short, so that the scene meets two expiries in about ten seconds. */
    static final Duration TOKEN_LIFETIME = Duration.ofSeconds(3);
    /** Past the token's life, so every round but the first finds it expired. */
    static final Duration ROUND_WAIT = TOKEN_LIFETIME.plus(Duration.ofMillis(500));

    /** What the scene counted. */
    static final class Result {
        final ApiCounters counters;
        final int replicasAllOk;
        final boolean fileCurrent;

        Result(ApiCounters counters, int replicasAllOk, boolean fileCurrent) {
            this.counters = counters;
            this.replicasAllOk = replicasAllOk;
            this.fileCurrent = fileCurrent;
        }
    }

    private final Path agentJar;
    private final Path classPath;
    private final PrintStream out;

    FleetScene(Path agentJar, Path classPath, PrintStream out) {
        this.agentJar = agentJar;
        this.classPath = classPath;
        this.out = out;
    }

    Result run(Path dir) throws IOException, InterruptedException {
        SimulatedApi.Settings settings =
                SimulatedApi.Settings.builder().tokenLifetime(TOKEN_LIFETIME).build();
        try (SimulatedApi api = new SimulatedApi(settings).start()) {
            Path refreshTokenFile =
                    DemoLauncher.writeSecret(dir.resolve("fleet-refresh-token"), api.currentRefreshToken());
            out.println();
            out.println(
                    "fleet: " + REPLICAS + " replicas of one app, one refresh-token file, a token service that rotates"
                            + " the refresh token on every use ("
                            + settings.tokenLifetime().getSeconds() + " s tokens)");
            List<Process> replicas = new ArrayList<>();
            for (int i = 0; i < REPLICAS; i++) {
                replicas.add(new ProcessBuilder(command(api, refreshTokenFile))
                        .redirectErrorStream(true)
                        .start());
            }
            int allOk = 0;
            for (int i = 0; i < replicas.size(); i++) {
                Process p = replicas.get(i);
                p.getOutputStream().close();
                String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (!p.waitFor(DemoLauncher.CHILD_TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly().waitFor();
                }
                for (String line : output.split("\n")) {
                    out.println("  replica " + (i + 1) + " | " + line);
                }
                if (p.exitValue() == 0) {
                    allOk++;
                }
            }
            boolean fileCurrent = new String(Files.readAllBytes(refreshTokenFile), StandardCharsets.UTF_8)
                    .trim()
                    .equals(api.currentRefreshToken());
            Result result = new Result(api.counters(), allOk, fileCurrent);
            report(result);
            return result;
        }
    }

    private List<String> command(SimulatedApi api, Path refreshTokenFile) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-javaagent:" + agentJar);
        command.add("-Dapiwarden.base-url=" + api.baseUrl());
        command.add("-Dapiwarden.auth-url=" + api.authUrl());
        command.add("-Dapiwarden.refresh-token-file=" + refreshTokenFile);
        command.add("-D" + FleetProgram.ROUND_WAIT_PROPERTY + "=" + ROUND_WAIT.toMillis());
        // The scene is about tokens: its spans would only repeat the first scene's.
        command.add("-Dotel.traces.exporter=none");
        String logLevel = System.getProperty(DemoLauncher.LOG_LEVEL_PROPERTY);
        if (logLevel != null) {
            command.add("-D" + DemoLauncher.LOG_LEVEL_PROPERTY + "=" + logLevel);
        }
        command.add("-cp");
        command.add(classPath.toString());
        command.add(FleetProgram.class.getName());
        return command;
    }

    private void report(Result r) {
        ApiCounters c = r.counters;
        int expiries = FleetProgram.ROUNDS;
        out.println("fleet report (counted by the simulated API)");
        out.println("  token requests           : " + c.tokenRequests() + " for " + expiries
                + " tokens the replicas needed" + " (the first, then one per expiry) across " + REPLICAS + " JVMs");
        out.println("  invalid_grant refusals   : " + c.grantsRefused()
                + " (a refresh token used twice: a replica logged out)");
        out.println("  replicas with every call 200: " + r.replicasAllOk + " of " + REPLICAS);
        out.println("  refresh-token file       : "
                + (r.fileCurrent ? "holds the latest rotated refresh token" : "is behind the token service"));
    }
}
