package io.apiwarden.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The demo: starts the simulated API, runs {@link DemoProgram} in a child JVM under the agent, and
 * reports from the server's counters what the agent had to do.
 *
 * <p>The app starts with an access token that has already expired, as one kept from an earlier
 * run would be, so its first call meets "OAuth invalid token". The settings are tuned so that one
 * run of about ten seconds also exceeds the global rate limit once and outlives a token.
 *
 * <p>A second simulated API, {@code payments}, with a token service and a rate limit of its own, is
 * configured beside the first as a named API ({@code apiwarden.api.payments.*}): the app calls it
 * during the burst that the first API's rate limit holds, and it answers 200 all along.
 */
public final class DemoLauncher {
    /** Shorter than the program's pause, so the token expires between its two phases. */
    static final Duration TOKEN_LIFETIME = Duration.ofSeconds(3);
    /** The program's burst of ten calls exceeds six per window; its second phase stays within. */
    static final int RATE_LIMIT = 6;

    static final Duration RATE_LIMIT_WINDOW = Duration.ofSeconds(2);
    /** One second: Retry-After is whole seconds, so this is the shortest throttle a client can be told. */
    static final Duration THROTTLE_PERIOD = Duration.ofSeconds(1);
    /** Scaled down from the spec's 2 s, so the demo does not wait through the full back-off schedule. */
    static final String BACKOFF_INITIAL_DELAY = "200ms";
    /** The program pauses this long past the token lifetime, so its next call surely finds the token expired. */
    static final Duration EXPIRY_MARGIN = Duration.ofMillis(500);
    /** Far beyond a normal run; a child that takes longer hangs and is stopped. */
    static final Duration CHILD_TIME_LIMIT = Duration.ofMinutes(2);
    /** Passed on to the child when set, so {@code -Dapiwarden.log.level=debug} shows the agent's work. */
    static final String LOG_LEVEL_PROPERTY = "apiwarden.log.level";

    /**
     * The edge proxy fails one request in this many by itself: a 502/504 is not one of the spec's
     * two errors, so the agent leaves it to the app, and the trace says the proxy answered.
     */
    static final int PROXY_FAIL_EVERY = 13;
    /** Console spans shown in full; the rest are counted. */
    static final int SPANS_SHOWN = 4;

    static SimulatedApi.Settings demoSettings() {
        return SimulatedApi.Settings.builder()
                .tokenLifetime(TOKEN_LIFETIME)
                .rateLimit(RATE_LIMIT, RATE_LIMIT_WINDOW)
                .throttlePeriod(THROTTLE_PERIOD)
                .proxyFailEvery(PROXY_FAIL_EVERY)
                .build();
    }

    /** How a demo run ended. */
    static final class Result {
        final int exitCode;
        final ApiCounters counters;
        /** What the second API saw. */
        final ApiCounters payments;

        final FleetScene.Result fleet;

        Result(int exitCode, ApiCounters counters, ApiCounters payments, FleetScene.Result fleet) {
            this.exitCode = exitCode;
            this.counters = counters;
            this.payments = payments;
            this.fleet = fleet;
        }
    }

    private final Path agentJar;
    private final Path demoClassPath;
    private final PrintStream out;
    /** Spans the console exporter printed. */
    private volatile int spansSeen;
    /** From the call spans: calls that waited for a rate limit, and the waits in all. */
    private volatile int callsThatWaited;

    private volatile long waitedMillis;
    private static final java.util.regex.Pattern WAITED =
            java.util.regex.Pattern.compile("apiwarden\\.waited_ms=(\\d+)");

    DemoLauncher(Path agentJar, Path demoClassPath, PrintStream out) {
        this.agentJar = agentJar;
        this.demoClassPath = demoClassPath;
        this.out = out;
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("--serve")) {
            serve();
            return;
        }
        if (args.length > 0) {
            System.err.println("demo: usage: java -jar apiwarden-demo.jar [--serve]");
            System.exit(2);
        }
        int exitCode;
        try {
            Path codeSource = AgentJarLocator.demoCodeSource();
            Path agentJar = AgentJarLocator.locate(
                    System.getProperty(AgentJarLocator.AGENT_JAR_PROPERTY),
                    Paths.get("").toAbsolutePath(),
                    codeSource);
            exitCode = new DemoLauncher(agentJar, codeSource, System.out).run().exitCode;
        } catch (AgentJarLocator.AgentJarNotFoundException e) {
            System.err.println("demo: " + e.getMessage());
            exitCode = 2;
        } catch (IOException | UncheckedIOException e) {
            System.err.println("demo: could not run the demo: " + e);
            exitCode = 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("demo: interrupted");
            exitCode = 2;
        }
        System.exit(exitCode);
    }

    /**
     * Runs the simulated API alone, for pointing an app of one's own at it, until the JVM is
     * stopped. Prints the URLs and the agent options that go with them.
     */
    static void serve() {
        try {
            SimulatedApi api = new SimulatedApi(demoSettings()).start();
            SimulatedApi payments = new SimulatedApi(PaymentsApi.settings()).start();
            Path dir = ownerOnlyFolder();
            Path refreshTokenFile = writeSecret(dir.resolve("refresh-token"), api.currentRefreshToken());
            Path paymentsRefreshTokenFile =
                    writeSecret(dir.resolve("payments-refresh-token"), payments.currentRefreshToken());
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                api.close();
                payments.close();
                try {
                    deleteFolder(dir);
                } catch (IOException e) {
                    // a temporary folder; the OS cleans it up
                }
            }));
            System.out.println("simulated API: " + api.baseUrl() + "  (GET /user, HEAD /)");
            System.out.println("token endpoint: " + api.tokenUrl());
            System.out.println("settings: " + api.settings());
            System.out.println("second API (payments): " + payments.baseUrl() + ", token endpoint "
                    + payments.tokenUrl() + ", " + payments.settings());
            System.out.println("attach the agent to your app with (the payments options only to call both):");
            System.out.println("  -Dapiwarden.base-url=" + api.baseUrl() + " -Dapiwarden.auth-url=" + api.authUrl()
                    + " -Dapiwarden.refresh-token-file=" + refreshTokenFile);
            System.out.println("  " + String.join(" ", PaymentsApi.options(payments, paymentsRefreshTokenFile)));
            System.out.println("Ctrl-C stops it.");
            Thread.currentThread().join();
        } catch (IOException e) {
            System.err.println("demo: could not start the simulated API: " + e);
            System.exit(2);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Runs the whole demo (the app, then the fleet scene) and prints its reports; the result
     * carries the app's exit code, or 1 when the fleet scene had a replica fail.
     */
    Result run() throws IOException, InterruptedException {
        Path dir = ownerOnlyFolder();
        try {
            int appExit;
            ApiCounters appCounters;
            ApiCounters paymentsCounters;
            try (SimulatedApi api = new SimulatedApi(demoSettings()).start();
                    SimulatedApi payments = new SimulatedApi(PaymentsApi.settings()).start()) {
                out.println("demo: simulated API at " + api.baseUrl() + ", token endpoint " + api.tokenUrl());
                out.println("demo: " + api.settings());
                out.println("demo: second API (payments) at " + payments.baseUrl() + ", token endpoint "
                        + payments.tokenUrl() + "; " + payments.settings());
                Path refreshTokenFile = writeSecret(dir.resolve("refresh-token"), api.currentRefreshToken());
                Path accessTokenFile = writeSecret(dir.resolve("access-token"), api.staleAccessToken());
                Path paymentsRefreshTokenFile =
                        writeSecret(dir.resolve("payments-refresh-token"), payments.currentRefreshToken());
                List<String> command = command(api, accessTokenFile, refreshTokenFile);
                command.addAll(1, PaymentsApi.options(payments, paymentsRefreshTokenFile));
                int exitCode = runApp(command);
                printReport(api, refreshTokenFile, exitCode);
                PaymentsApi.printReport(payments, out);
                paymentsCounters = payments.counters();
                appExit = exitCode;
                appCounters = api.counters();
            }
            FleetScene.Result fleet = new FleetScene(agentJar, demoClassPath, out).run(dir);
            boolean fleetOk = fleet.replicasAllOk == FleetScene.REPLICAS && fleet.counters.grantsRefused() == 0;
            return new Result(appExit != 0 ? appExit : fleetOk ? 0 : 1, appCounters, paymentsCounters, fleet);
        } finally {
            deleteFolder(dir);
        }
    }

    List<String> command(SimulatedApi api, Path accessTokenFile, Path refreshTokenFile) {
        boolean windows =
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
        Path java = Paths.get(System.getProperty("java.home"), "bin", windows ? "java.exe" : "java");
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.add("-javaagent:" + agentJar);
        command.add("-Dapiwarden.base-url=" + api.baseUrl());
        command.add("-Dapiwarden.auth-url=" + api.authUrl());
        command.add("-Dapiwarden.access-token-file=" + accessTokenFile);
        command.add("-Dapiwarden.refresh-token-file=" + refreshTokenFile);
        command.add("-Dapiwarden.backoff.initial-delay=" + BACKOFF_INITIAL_DELAY);
        command.add("-D" + DemoProgram.EXPIRY_WAIT_PROPERTY + "="
                + TOKEN_LIFETIME.plus(EXPIRY_MARGIN).toMillis());
        command.add("-Dotel.service.name=apiwarden-demo");
        if (tracesToConsole()) {
            command.add("-Dotel.traces.exporter=console");
        }
        String logLevel = System.getProperty(LOG_LEVEL_PROPERTY);
        if (logLevel != null) {
            command.add("-D" + LOG_LEVEL_PROPERTY + "=" + logLevel);
        }
        command.add("-cp");
        command.add(demoClassPath.toString());
        command.add(DemoProgram.class.getName());
        return command;
    }

    /** Starts the app, copies its output (the agent's log on standard error included) with a prefix, returns its exit code. */
    private int runApp(List<String> command) throws IOException, InterruptedException {
        out.println("demo: starting the app with -javaagent:" + agentJar);
        Process app = new ProcessBuilder(command).redirectErrorStream(true).start();
        app.getOutputStream().close();
        Thread copier = new Thread(() -> copyLines(app, "  app | "), "demo-app-output");
        copier.setDaemon(true);
        copier.start();
        if (!app.waitFor(CHILD_TIME_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            app.destroyForcibly().waitFor();
            out.println("demo: the app did not finish within " + CHILD_TIME_LIMIT.getSeconds()
                    + " s and was stopped; rerun with -D" + LOG_LEVEL_PROPERTY + "=debug to see where it waits");
        }
        copier.join(TimeUnit.SECONDS.toMillis(5));
        return app.exitValue();
    }

    /** Spans go to the console unless the user points the export somewhere (OTLP to their backend, say). */
    static boolean tracesToConsole() {
        return System.getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == null && System.getenv("OTEL_TRACES_EXPORTER") == null;
    }

    private void copyLines(Process app, String prefix) {
        // The child writes in its platform encoding; this JVM runs on the same platform.
        Charset charset = Charset.defaultCharset();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(app.getInputStream(), charset))) {
            String line;
            while ((line = lines.readLine()) != null) {
                // The console exporter logs each span as two lines: a java.util.logging header, then "INFO: 'name' :
                // ...".
                if (line.contains("LoggingSpanExporter export")) {
                    continue;
                }
                if (line.startsWith("INFO: '")) {
                    java.util.regex.Matcher waited = WAITED.matcher(line);
                    if (waited.find() && Long.parseLong(waited.group(1)) > 0) {
                        callsThatWaited++;
                        waitedMillis += Long.parseLong(waited.group(1));
                    }
                    if (spansSeen++ < SPANS_SHOWN) {
                        out.println("trace | " + line.substring("INFO: ".length()));
                    }
                    continue;
                }
                out.println(prefix + line);
            }
        } catch (IOException e) {
            out.println("demo: lost the app's output: " + e);
        }
    }

    private void printReport(SimulatedApi api, Path refreshTokenFile, int exitCode) throws IOException {
        ApiCounters c = api.counters();
        String fileState = Files.isRegularFile(refreshTokenFile)
                        && new String(Files.readAllBytes(refreshTokenFile), StandardCharsets.UTF_8)
                                .trim()
                                .equals(api.currentRefreshToken())
                ? "holds the latest rotated refresh token"
                : "does not hold the latest refresh token";
        out.println();
        out.println("demo report (counted by the simulated API)");
        out.println("  requests to the API      : " + c.apiRequests() + " (the app's calls and the agent's resends)");
        out.println("  token requests           : " + c.tokenRequests() + " (" + c.tokensIssued()
                + " answered with a token)");
        out.println("  token refreshes          : " + c.tokensIssued()
                + " (the app started with an expired token; every new one was a refresh)");
        out.println("  401 OAuth invalid token  : " + c.unauthorized());
        out.println("  429 rate limit exceeded  : " + c.rateLimited());
        out.println("  back-off waits           : "
                + (tracesToConsole()
                        ? callsThatWaited + " calls waited, " + waitedMillis
                                + " ms in all (from the call spans' apiwarden.waited_ms)"
                        : "see apiwarden.waited_ms on the call spans in your tracing backend"));
        out.println("  502/504 from the proxy   : " + c.proxyErrors()
                + " (the proxy's, not the app's: the agent leaves them to the app)");
        out.println("  traces                   : "
                + (tracesToConsole()
                        ? spansSeen + " spans printed by the console exporter (" + Math.min(spansSeen, SPANS_SHOWN)
                                + " shown above);"
                                + " set OTEL_EXPORTER_OTLP_ENDPOINT=http://your-collector:4318 to send them to your tracing backend"
                        : "exported as OTEL_* says (" + System.getenv("OTEL_EXPORTER_OTLP_ENDPOINT") + ")"));
        out.println("  refresh-token file       : " + fileState);
        out.println("  app exit code            : " + exitCode
                + (exitCode == 0
                        ? " (every call the agent could rescue ended in 200)"
                        : " (a call the agent should have rescued failed; see above)"));
    }

    /**
     * A temporary folder only this user can open, for the token files: secrets must not go on a
     * command line, and the agent keeps its state and lock files beside the refresh-token file.
     */
    static Path ownerOnlyFolder() throws IOException {
        FileAttribute<?>[] ownerOnly =
                FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                        ? new FileAttribute<?>[] {
                            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
                        }
                        : new FileAttribute<?>[0];
        return Files.createTempDirectory("apiwarden-demo-", ownerOnly);
    }

    static Path writeSecret(Path file, String secret) throws IOException {
        Files.write(file, (secret + "\n").getBytes(StandardCharsets.UTF_8));
        if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
            // As a deployment keeps a secret: readable by the app's user only (the agent warns about any other).
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return file;
    }

    /** Deletes the demo's folder and what the agent left in it. */
    static void deleteFolder(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
