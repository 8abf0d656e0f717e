package io.apiwarden.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar agent/benchmarks/target/apiwarden-benchmarks.jar [--quick] [--only=startup,per-call,storms]
 * [--out=FILE]}: measures API Warden beside the bare client and the OpenTelemetry Java agent and writes the
 * results as Markdown tables. {@code --soak [calls]} runs the soak instead ({@link SoakRun}), and
 * {@code --retry-after-soak [resends]} the soak of throttle windows ({@link RetryAfterSoakRun}).
 */
public final class BenchmarkSuite {
    /** The storms' sizes, from the issue: 10, 100 and 1000 callers at once. */
    static final int[] STORM_CALLERS = {10, 100, 1000};
    /** Callers meeting a rate-limit window: this many in one JVM, or split over {@link #WINDOW_JVMS}. */
    static final int WINDOW_CALLERS = 100;

    static final int WINDOW_JVMS = 3;
    static final String AGENT_JAR_PROPERTY = "apiwarden.bench.agent-jar";
    static final String OTEL_AGENT_JAR_PROPERTY = "apiwarden.bench.otel-agent-jar";

    enum Part {
        STARTUP("startup"),
        PER_CALL("per-call"),
        /** What management adds to a call, managed and unmanaged calls taking turns in one JVM ({@link PairedRun}). */
        MANAGEMENT("management"),
        STORMS("storms"),
        THROTTLE_WINDOW("throttle-window");

        final String option;

        Part(String option) {
            this.option = option;
        }
    }

    /** The command line, checked. */
    static final class Options {
        final Effort effort;
        final Set<Part> parts;
        final Set<AgentSetup> setups;
        /** The ways of calling that the per-call part measures. */
        final Set<AppCalls.Way> ways;

        final Path out;

        Options(Effort effort, Set<Part> parts, Set<AgentSetup> setups, Set<AppCalls.Way> ways, Path out) {
            this.effort = effort;
            this.parts = parts;
            this.setups = setups;
            this.ways = ways;
            this.out = out;
        }

        static Options parse(String[] args, Path defaultOut) {
            Effort effort = Effort.FULL;
            // Management in pairs only when asked for: a minute per way and setup, about 40 more at full effort.
            Set<Part> parts = EnumSet.complementOf(EnumSet.of(Part.MANAGEMENT));
            Set<AgentSetup> setups = EnumSet.copyOf(AgentSetup.DEFAULT);
            Set<AppCalls.Way> ways = EnumSet.allOf(AppCalls.Way.class);
            Path out = defaultOut;
            for (String arg : args) {
                if (arg.equals("--quick")) {
                    effort = Effort.QUICK;
                } else if (arg.startsWith("--only=")) {
                    parts = EnumSet.noneOf(Part.class);
                    for (String name : arg.substring("--only=".length()).split(",")) {
                        parts.add(partNamed(name.trim()));
                    }
                } else if (arg.startsWith("--setups=")) {
                    setups = EnumSet.noneOf(AgentSetup.class);
                    for (String name : arg.substring("--setups=".length()).split(",")) {
                        setups.add(AgentSetup.named(name.trim()));
                    }
                } else if (arg.startsWith("--ways=")) {
                    ways = EnumSet.noneOf(AppCalls.Way.class);
                    for (String name : arg.substring("--ways=".length()).split(",")) {
                        ways.add(AppCalls.Way.named(name.trim()));
                    }
                } else if (arg.startsWith("--out=")) {
                    out = Paths.get(arg.substring("--out=".length()));
                } else {
                    throw new IllegalArgumentException("unknown argument '" + arg
                            + "'; use --quick, --only=startup,per-call,management,storms,throttle-window, --setups="
                            + AgentSetup.optionNames()
                            + ", --ways=jdk-send,apache-execute,... (per call, management), --out=FILE");
                }
            }
            return new Options(effort, parts, setups, ways, out);
        }

        private static Part partNamed(String name) {
            for (Part p : Part.values()) {
                if (p.option.equals(name)) {
                    return p;
                }
            }
            throw new IllegalArgumentException(
                    "--only takes startup, per-call, management, storms and throttle-window, not '" + name + "'");
        }
    }

    private BenchmarkSuite() {}

    public static void main(String[] args) throws Exception {
        Path benchJar = ProcessProbe.codeSource();
        boolean soak = args.length > 0 && args[0].equals("--soak");
        boolean retryAfterSoak = args.length > 0 && args[0].equals("--retry-after-soak");
        Options options;
        try {
            options = soak || retryAfterSoak
                    ? null
                    : Options.parse(args, benchJar.resolveSibling("benchmark-results.md"));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        List<String> meddling = meddlingVariables(System.getenv().keySet());
        if (!meddling.isEmpty()) {
            System.err.println("unset " + String.join(", ", meddling) + " before benchmarking: the measured JVMs would "
                    + "inherit them, and each setup must see only its own options");
            System.exit(2);
            return;
        }
        Path apiWardenJar = jar(AGENT_JAR_PROPERTY, benchJar.resolveSibling("../../target/apiwarden-agent.jar"));
        if (soak) {
            try {
                SoakRun.main(apiWardenJar, Arrays.copyOfRange(args, 1, args.length));
            } catch (IllegalArgumentException e) {
                System.err.println("--soak takes the number of calls, 100 or more: " + e.getMessage());
                System.exit(2);
            }
            return;
        }
        if (retryAfterSoak) {
            try {
                RetryAfterSoakRun.main(apiWardenJar, Arrays.copyOfRange(args, 1, args.length));
            } catch (IllegalArgumentException e) {
                System.err.println("--retry-after-soak takes the number of resends, 1 or more: " + e.getMessage());
                System.exit(2);
            }
            return;
        }
        Path otelAgentJar = jar(OTEL_AGENT_JAR_PROPERTY, benchJar.resolveSibling("opentelemetry-javaagent.jar"));
        String markdown = run(options, apiWardenJar, otelAgentJar);
        Files.createDirectories(options.out.toAbsolutePath().getParent());
        Files.write(options.out, markdown.getBytes(StandardCharsets.UTF_8));
        System.out.println();
        System.out.println(markdown);
        System.out.println("written to " + options.out.toAbsolutePath().normalize());
    }

    static String run(Options options, Path apiWardenJar, Path otelAgentJar) throws Exception {
        // Start-up and per call; the storms always set no agent beside API Warden.
        List<AgentSetup> setups = new ArrayList<>(options.setups);
        Report report = new Report(header(options));
        report.jarSizes(megabytes(Files.size(apiWardenJar)), megabytes(Files.size(otelAgentJar)));
        try (OtlpSink sink = OtlpSink.start();
                FastApiServer api = FastApiServer.start()) {
            Target target = new Target(
                    api.baseUrl(),
                    api.authUrl(),
                    api.healthUrl(),
                    api.accessToken(),
                    sink.endpoint(),
                    apiWardenJar,
                    otelAgentJar);
            warmUp(target, options.effort.serverWarmupSeconds);
            if (options.parts.contains(Part.STARTUP)) {
                System.out.println("== start-up and memory, " + processRuns(options.effort) + " runs per setup");
                List<StartupRun.Figure> startup = new ArrayList<>();
                StartupRun run = new StartupRun(target, processRuns(options.effort));
                startup.addAll(run.run(setups, AppCalls.Way.JDK_SEND));
                startup.addAll(run.run(setups, AppCalls.Way.OKHTTP_EXECUTE));
                report.startup(startup);
            }
            if (options.parts.contains(Part.PER_CALL)) {
                List<PerCallRun.Figure> perCall = new PerCallRun(target, options.effort).run(setups, options.ways);
                report.perCall(perCall);
                report.perCallCpu(perCall);
            }
            if (options.parts.contains(Part.MANAGEMENT)) {
                report.management(new PairedRun(target, options.effort).run(setups, options.ways));
            }
            if (options.parts.contains(Part.STORMS)) {
                System.out.println("== storms");
                List<StormRun.Figure> storms = new ArrayList<>();
                StormRun stormRun = new StormRun(apiWardenJar, sink.endpoint());
                // Not reported: the simulated API's server code is compiled before the first storm that counts.
                stormRun.run(StormRun.Kind.REFRESH, AgentSetup.NO_AGENT, STORM_CALLERS[1]);
                for (StormRun.Kind kind : StormRun.Kind.values()) {
                    for (int callers : STORM_CALLERS) {
                        storms.add(stormRun.run(kind, AgentSetup.NO_AGENT, callers));
                        storms.add(stormRun.run(kind, AgentSetup.API_WARDEN, callers));
                    }
                }
                report.storms(storms);
            }
            if (options.parts.contains(Part.THROTTLE_WINDOW)) {
                System.out.println("== a global rate-limit window already in force, "
                        + ThrottleWindowRun.WINDOW.getSeconds() + " s");
                List<ThrottleWindowRun.Figure> windows = new ArrayList<>();
                ThrottleWindowRun windowRun = new ThrottleWindowRun(apiWardenJar);
                for (ThrottleWindowApi.Mode mode : ThrottleWindowApi.Mode.values()) {
                    windows.add(windowRun.run(mode, 1, WINDOW_CALLERS));
                    windows.add(windowRun.run(mode, WINDOW_JVMS, WINDOW_CALLERS / 2));
                }
                report.throttleWindows(windows);
            }
            System.out.printf(
                    "(the OTLP sink received %d exports, %.1f MB; the API %d calls, %d of them refused)%n",
                    sink.exports(), megabytes(sink.bytes()), api.apiRequests(), api.unauthorized());
        }
        return report.toMarkdown();
    }

    /**
     * Calls the server in every way for a while from this JVM, which has no agent: the server's code is
     * compiled before the first measurement, so no setup pays for the server's warm-up.
     */
    private static void warmUp(Target target, int seconds) {
        System.out.println("== warming the server up for " + seconds + " s");
        System.setProperty(
                AgentSetup.APP_TOKEN_FILE_PROPERTY, target.accessTokenFile().toString());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try (AppCalls app = AppCalls.withAllClients()) {
            while (System.nanoTime() < end) {
                for (AppCalls.Way way : AppCalls.Way.values()) {
                    app.call(way, target.managedUrl(), true);
                    app.call(way, target.unmanagedUrl(), false);
                }
            }
        } finally {
            System.clearProperty(AgentSetup.APP_TOKEN_FILE_PROPERTY);
        }
    }

    /** Environment variables that would configure an agent or a JVM behind the setups' backs. */
    static List<String> meddlingVariables(Set<String> names) {
        List<String> found = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith("APIWARDEN_")
                    || name.startsWith("OTEL_")
                    || name.equals("JAVA_TOOL_OPTIONS")
                    || name.equals("JDK_JAVA_OPTIONS")
                    || name.equals("_JAVA_OPTIONS")) {
                found.add(name);
            }
        }
        found.sort(null);
        return found;
    }

    private static String header(Options options) throws IOException {
        Runtime rt = Runtime.getRuntime();
        return "## Results of " + LocalDate.now(ZoneOffset.UTC)
                + (options.effort == Effort.QUICK ? " (quick run: indicative only)" : "")
                + "\n\n- machine: " + cpuModel() + ", " + rt.availableProcessors() + " cores, "
                + memTotalGb() + " GB memory, " + System.getProperty("os.name") + " " + System.getProperty("os.version")
                + "\n- JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + "\n- server: on loopback, keep-alive; per call and start-up: one Netty event loop answering "
                + "`GET /api/v1/user` (managed, bearer checked, 50-byte JSON) and `GET /health` (unmanaged, 2 bytes); "
                + "storms: the simulated API of the demo (token rotation, global rate limit)"
                + "\n- both agents trace and meter every call and export over OTLP/HTTP to a local sink"
                + "\n- effort: " + effort(options.effort);
    }

    private static String effort(Effort e) {
        return String.format(
                Locale.ROOT,
                "server warmed up for %d s; JMH %d fork(s) × (%d warm-up + %d measured "
                        + "iterations of %d s); %d whole-process runs per setup",
                e.serverWarmupSeconds,
                e.forks,
                e.warmupIterations,
                e.measurementIterations,
                e.iterationSeconds,
                processRuns(e));
    }

    /** Whole-process runs per setup: the effort's, or {@code -Dapiwarden.bench.process-runs} (10 for a closer median). */
    private static int processRuns(Effort e) {
        return Integer.getInteger("apiwarden.bench.process-runs", e.processRuns);
    }

    private static String cpuModel() throws IOException {
        Path cpuinfo = Paths.get("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            for (String line : Files.readAllLines(cpuinfo, StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        return System.getProperty("os.arch");
    }

    private static String memTotalGb() throws IOException {
        Path meminfo = Paths.get("/proc/meminfo");
        if (Files.isReadable(meminfo)) {
            for (String line : Files.readAllLines(meminfo, StandardCharsets.UTF_8)) {
                if (line.startsWith("MemTotal:")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    return String.format(Locale.ROOT, "%.0f", kb / 1024.0 / 1024.0);
                }
            }
        }
        return "?";
    }

    private static Path jar(String property, Path fallback) {
        String explicit = System.getProperty(property);
        Path jar = (explicit != null ? Paths.get(explicit) : fallback)
                .toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no jar at " + jar + ": build from the project root with "
                    + "./mvnw -q -DskipTests package, or name it with -D" + property + "=<path>");
        }
        return jar;
    }

    private static double megabytes(long bytes) {
        return bytes / 1024.0 / 1024.0;
    }
}
