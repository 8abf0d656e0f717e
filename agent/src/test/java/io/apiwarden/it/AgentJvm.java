package io.apiwarden.it;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test app in its own JVM, with the built agent jar attached unless told otherwise: a main class
 * of the test classes (on a class path of their own and what {@link #classPath} adds), or an executable
 * jar (as a Spring Boot fat jar is started).
 */
final class AgentJvm {
    /** A whole app run is a few calls; a minute means something hangs. */
    private static final long TIMEOUT_SECONDS = 60;

    /**
     * Options every test app's JVM starts with. A test app lives for seconds: the JIT's second tier would spend
     * more CPU compiling than its code would save, and on two cores that CPU is taken from the tests running
     * beside it (the build's child JVMs together used about a third less CPU with the first tier only). What
     * the agent costs at full speed is measured by the benchmarks, which do not start their JVMs this way.
     */
    static final List<String> TEST_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1");

    private final Map<String, String> properties = new LinkedHashMap<>();
    private final List<String> classPath = new ArrayList<>();
    private final List<String> jvmArgs = new ArrayList<>();
    private boolean withAgent = true;

    static Path agentJar() {
        return Paths.get(required("apiwarden.it.agent-jar"));
    }

    static Path itLib(String name) {
        return Paths.get(required("apiwarden.it.libs"), name);
    }

    /** Sets a system property of the app's JVM; null removes one set before. */
    AgentJvm property(String key, String value) {
        if (value == null) {
            properties.remove(key);
            return this;
        }
        properties.put(key, value);
        return this;
    }

    AgentJvm classPath(Path entry) {
        classPath.add(entry.toString());
        return this;
    }

    /** Adds a JVM option, placed after the agent's: another {@code -javaagent}, say. */
    AgentJvm jvmArg(String arg) {
        jvmArgs.add(arg);
        return this;
    }

    AgentJvm withoutAgent() {
        withAgent = false;
        return this;
    }

    /**
     * {@link #run} on a thread of its own. Not on the common pool: on two cores it runs one task at
     * a time, and JVMs that wait for one another (a fleet's rounds) would never meet.
     */
    java.util.concurrent.CompletableFuture<Result> runInBackground(Class<?> main, String... args) {
        java.util.concurrent.CompletableFuture<Result> result = new java.util.concurrent.CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try {
                        result.complete(run(main, args));
                    } catch (Throwable e) {
                        result.completeExceptionally(e);
                    }
                },
                "agent-jvm-" + main.getSimpleName());
        t.setDaemon(true);
        t.start();
        return result;
    }

    Result run(Class<?> main, String... args) throws IOException, InterruptedException {
        return waitFor(start(main, args));
    }

    /** Runs {@code java -jar jar args}: the jar's own manifest names its main class and class path. */
    Result runJar(Path jar, String... args) throws IOException, InterruptedException {
        return waitFor(start(List.of("-jar", jar.toString()), args));
    }

    private static Result waitFor(Running app) throws IOException, InterruptedException {
        if (!app.process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            app.process.destroyForcibly();
            throw new AssertionError("the app did not finish within " + TIMEOUT_SECONDS + " s: " + app.command
                    + "\nstdout:\n" + Files.readString(app.out) + "\nstderr:\n" + Files.readString(app.err));
        }
        return app.result();
    }

    /** Starts the app and returns at once: for a test that ends the app itself. */
    Running start(Class<?> main, String... args) throws IOException {
        List<String> entries = new ArrayList<>();
        entries.add(required("apiwarden.it.app-classes"));
        entries.addAll(classPath);
        return start(List.of("-cp", String.join(File.pathSeparator, entries), main.getName()), args);
    }

    private Running start(List<String> launch, String... args) throws IOException {
        List<String> command = command(launch, args);
        Path out = Files.createTempFile("apiwarden-it-", ".out");
        Path err = Files.createTempFile("apiwarden-it-", ".err");
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("APIWARDEN_") || k.startsWith("JAVA_TOOL_OPTIONS"));
        return new Running(command, pb.start(), out, err);
    }

    private List<String> command(List<String> launch, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (withAgent) {
            command.add("-javaagent:" + agentJar());
        }
        command.addAll(TEST_JVM_OPTIONS);
        command.addAll(jvmArgs);
        properties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        if (!properties.containsKey("otel.traces.exporter") && !properties.containsKey("otel.exporter.otlp.endpoint")) {
            // Apps that test no export send none: nothing listens on the default endpoint here.
            command.add("-Dotel.traces.exporter=none");
        }
        command.addAll(launch);
        command.addAll(Arrays.asList(args));
        return command;
    }

    private static String required(String key) {
        String v = System.getProperty(key);
        if (v == null) {
            throw new IllegalStateException(
                    key + " is not set: run the integration tests through Maven (./mvnw verify)");
        }
        return v;
    }

    /** An app JVM that was started and not yet waited for. */
    static final class Running {
        final List<String> command;
        final Process process;
        private final Path out;
        private final Path err;

        Running(List<String> command, Process process, Path out, Path err) {
            this.command = command;
            this.process = process;
            this.out = out;
            this.err = err;
        }

        /** What the app printed and how it ended; call once the process has ended. */
        Result result() throws IOException {
            Result r = new Result(
                    process.exitValue(),
                    Files.readAllLines(out, StandardCharsets.UTF_8),
                    Files.readAllLines(err, StandardCharsets.UTF_8));
            Files.delete(out);
            Files.delete(err);
            return r;
        }
    }

    /** What the app did. */
    static final class Result {
        final int exitCode;
        final List<String> stdout;
        final List<String> stderr;

        Result(int exitCode, List<String> stdout, List<String> stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** Lines the agent logged. */
        List<String> agentLog() {
            List<String> lines = new ArrayList<>();
            for (String line : stderr) {
                if (line.contains("[apiwarden]")) {
                    lines.add(line);
                }
            }
            return lines;
        }

        String all() {
            return String.join("\n", stdout) + "\n" + String.join("\n", stderr);
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + String.join("\n", stdout) + "\nstderr:\n"
                    + String.join("\n", stderr);
        }
    }
}
