package io.apiwarden.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@link ProcessProbe} in a fresh JVM under one {@link AgentSetup} and times it from the outside. */
final class ChildJvm {
    /** A probe is a call or a storm of calls; five minutes means it hangs. */
    private static final Duration TIME_LIMIT = Duration.ofMinutes(5);

    /** What one probe run printed and how long its parts took, measured from just before the process started. */
    static final class Run {
        final List<String> lines;
        /** Until the probe printed {@code prefix}'s line; -1 if it never did. */
        final double millisToLine;

        final double millisToExit;

        Run(List<String> lines, double millisToLine, double millisToExit) {
            this.lines = lines;
            this.millisToLine = millisToLine;
            this.millisToExit = millisToExit;
        }

        /** The words after {@code prefix} on the probe's line that starts with it. */
        String[] valuesOf(String prefix) {
            for (String line : lines) {
                if (line.startsWith(prefix + " ")) {
                    return line.substring(prefix.length() + 1).trim().split(" ");
                }
            }
            throw new IllegalStateException("the probe printed no '" + prefix + "' line: " + lines);
        }
    }

    private ChildJvm() {}

    /**
     * Starts the probe, notes when it prints a line starting with {@code timedLine}, and waits for it to end.
     *
     * @param extraArgs JVM options after the setup's own
     */
    static Run run(AgentSetup setup, Target target, List<String> extraArgs, String timedLine, String... probeArgs)
            throws IOException, InterruptedException {
        return run(setup, target, extraArgs, TIME_LIMIT, timedLine, probeArgs);
    }

    /** As above, for a probe that may take longer than the usual time limit. */
    static Run run(
            AgentSetup setup,
            Target target,
            List<String> extraArgs,
            Duration timeLimit,
            String timedLine,
            String... probeArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(setup.jvmArgs(target));
        command.add("-D" + PerCallBenchmark.MANAGED_URL_PROPERTY + "=" + target.managedUrl());
        command.addAll(extraArgs);
        command.add("-cp");
        // The benchmark jar when run with java -jar; the test class path when a test runs a probe.
        command.add(System.getProperty("java.class.path"));
        command.add(ProcessProbe.class.getName());
        command.addAll(List.of(probeArgs));

        Path errors = Files.createTempFile("apiwarden-bench-", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(errors.toFile());
        // The measured JVM must see only what the setup gives it.
        builder.environment()
                .keySet()
                .removeAll(
                        BenchmarkSuite.meddlingVariables(builder.environment().keySet()));
        long start = System.nanoTime();
        Process process = builder.start();
        // Read on another thread, so that the time limit below holds even for a probe that hangs.
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        double[] millisToLine = {-1};
        Thread reader = new Thread(
                () -> {
                    try (BufferedReader out = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = out.readLine()) != null) {
                            if (millisToLine[0] < 0 && line.startsWith(timedLine)) {
                                millisToLine[0] = millisSince(start);
                            }
                            lines.add(line);
                        }
                    } catch (IOException e) {
                        lines.add("(output lost: " + e + ")");
                    }
                },
                "probe-output");
        reader.setDaemon(true);
        reader.start();
        if (!process.waitFor(timeLimit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("the probe under " + setup.label() + " did not end within "
                    + timeLimit.toSeconds() + " s: " + String.join(" ", probeArgs));
        }
        double millisToExit = millisSince(start);
        reader.join(TimeUnit.SECONDS.toMillis(10));
        List<String> stderr = Files.readAllLines(errors, StandardCharsets.UTF_8);
        Files.delete(errors);
        if (process.exitValue() != 0 || millisToLine[0] < 0) {
            throw new IllegalStateException("the probe under " + setup.label() + " failed (exit " + process.exitValue()
                    + "): stdout " + lines + ", stderr " + stderr);
        }
        return new Run(new ArrayList<>(lines), millisToLine[0], millisToExit);
    }

    private static double millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }
}
