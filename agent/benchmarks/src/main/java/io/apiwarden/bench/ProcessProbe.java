package io.apiwarden.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The app of the whole-process measurements, run in its own JVM by {@link ChildJvm}.
 *
 * <ul>
 *   <li>{@code first-call WAY}: one managed call, then the process's peak resident memory. The launcher
 *       times the line that reports the call from the moment it started the process.
 *   <li>{@code storm N}: {@code N} concurrent managed calls with {@code sendAsync}; how long until all
 *       were answered, and with what.
 *   <li>{@code window N}: one managed call, which opens (or meets) a rate-limit window, then
 *       {@code N} concurrent ones with {@code sendAsync}; how long until those were answered, and with what.
 *   <li>{@code soak N}: {@code N} managed calls in all four ways, and what the process holds meanwhile
 *       ({@link SoakLoad}).
 *   <li>{@code paired WAY R MS}: {@code R} rounds of a block of managed calls and one of unmanaged ones, {@code MS}
 *       each, taking turns ({@link PairedLoad}).
 *   <li>{@code retry-after-soak R C}: {@code C} callers in each of the four ways until the API has counted
 *       {@code R} resends ({@link RetryAfterSoakLoad}).
 * </ul>
 */
public final class ProcessProbe {
    static final String FIRST_CALL_LINE = "first-call";
    static final String PEAK_RSS_LINE = "peak-rss-kb";
    static final String STORM_LINE = "storm";
    static final String WINDOW_LINE = "window";
    /** Far longer than a loopback answer takes to be read. */
    static final java.time.Duration AFTER_OPENING = java.time.Duration.ofMillis(100);

    private ProcessProbe() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        URI url = URI.create(System.getProperty(PerCallBenchmark.MANAGED_URL_PROPERTY));
        if (args.length == 2 && args[0].equals("first-call")) {
            AppCalls.Way way = AppCalls.Way.valueOf(args[1]);
            try (AppCalls app = AppCalls.forWay(way)) {
                // Printed before the clients are closed: the launcher times this line.
                System.out.println(FIRST_CALL_LINE + " " + app.call(way, url, true));
                System.out.println(PEAK_RSS_LINE + " " + peakRssKb());
            }
        } else if (args.length == 2 && args[0].equals("storm")) {
            System.out.println(storm(url, Integer.parseInt(args[1])));
        } else if (args.length == 2 && args[0].equals("window")) {
            System.out.println(window(url, Integer.parseInt(args[1])));
        } else if (args.length == 2 && args[0].equals("soak")) {
            SoakLoad.run(url, Long.parseLong(args[1]));
        } else if (args.length == 4 && args[0].equals("paired")) {
            URI unmanaged = URI.create(System.getProperty(PerCallBenchmark.UNMANAGED_URL_PROPERTY));
            PairedLoad.run(
                    AppCalls.Way.valueOf(args[1]), url, unmanaged, Integer.parseInt(args[2]), Long.parseLong(args[3]));
        } else if (args.length == 3 && args[0].equals("retry-after-soak")) {
            RetryAfterSoakLoad.run(url, Long.parseLong(args[1]), Integer.parseInt(args[2]));
        } else {
            System.err.println(
                    "usage: ProcessProbe first-call WAY | storm N | window N | soak N | retry-after-soak RESENDS CALLERS"
                            + " | paired WAY ROUNDS BLOCK_MS");
            System.exit(2);
        }
    }

    private static String storm(URI url, int callers) {
        try (AppCalls app = AppCalls.forWay(AppCalls.Way.JDK_SEND_ASYNC)) {
            return STORM_LINE + " " + burst(app, url, callers);
        }
    }

    /**
     * One call opens the window (or meets it); the burst starts once the API says the window is open
     * and {@link #AFTER_OPENING} more has passed, so that the opening call's answer has reached the
     * app's side whatever it was: a refusal, or an answer announcing that nothing is left.
     */
    private static String window(URI url, int callers) throws InterruptedException {
        try (AppCalls app = AppCalls.forWay(AppCalls.Way.JDK_SEND_ASYNC)) {
            CompletableFuture<Integer> opening =
                    app.jdkSendAsync(app.jdkRequest(url, true)).exceptionally(failure -> -1);
            URI state = url.resolve(ThrottleWindowApi.STATE_PATH);
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!app.jdkGetBody(state).equals(ThrottleWindowApi.OPENED)) {
                if (System.nanoTime() > giveUp) {
                    throw new IllegalStateException("the API never opened its window");
                }
                Thread.sleep(5);
            }
            Thread.sleep(AFTER_OPENING.toMillis());
            String line = WINDOW_LINE + " " + burst(app, url, callers);
            opening.join();
            return line;
        }
    }

    /** {@code callers} calls at once: milliseconds until all were answered, how many 200, how many not. */
    private static String burst(AppCalls app, URI url, int callers) {
        long start = System.nanoTime();
        List<CompletableFuture<Integer>> calls = new ArrayList<>(callers);
        for (int i = 0; i < callers; i++) {
            calls.add(app.jdkSendAsync(app.jdkRequest(url, true)).exceptionally(failure -> -1));
        }
        int ok = 0;
        int other = 0;
        for (CompletableFuture<Integer> call : calls) {
            if (call.join() == 200) {
                ok++;
            } else {
                other++;
            }
        }
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        return millis + " " + ok + " " + other;
    }

    /** {@code VmHWM} of {@code /proc/self/status}: the most resident memory this process has had, in KiB. */
    static long peakRssKb() throws IOException {
        return parsePeakRssKb(Files.readAllLines(Paths.get("/proc/self/status"), StandardCharsets.US_ASCII));
    }

    static long parsePeakRssKb(List<String> status) {
        for (String line : status) {
            if (line.startsWith("VmHWM:")) {
                String[] parts = line.substring("VmHWM:".length()).trim().split("\\s+");
                return Long.parseLong(parts[0]);
            }
        }
        throw new IllegalStateException("no VmHWM line in /proc/self/status: peak memory is measured on Linux only");
    }

    /** Where this class was loaded from: the benchmark jar, beside which the suite finds the other jars. */
    static Path codeSource() {
        try {
            return Paths.get(ProcessProbe.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
