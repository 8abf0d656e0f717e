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
 *   <li>{@code soak N}: {@code N} managed calls in all four ways, and what the process holds meanwhile
 *       ({@link SoakLoad}).
 * </ul>
 */
public final class ProcessProbe {
    static final String FIRST_CALL_LINE = "first-call";
    static final String PEAK_RSS_LINE = "peak-rss-kb";
    static final String STORM_LINE = "storm";

    private ProcessProbe() {
    }

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
        } else if (args.length == 2 && args[0].equals("soak")) {
            SoakLoad.run(url, Long.parseLong(args[1]));
        } else {
            System.err.println("usage: ProcessProbe first-call WAY | storm N | soak N");
            System.exit(2);
        }
    }

    private static String storm(URI url, int callers) {
        try (AppCalls app = AppCalls.forWay(AppCalls.Way.JDK_SEND_ASYNC)) {
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
            return STORM_LINE + " " + millis + " " + ok + " " + other;
        }
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
            return Paths.get(ProcessProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
