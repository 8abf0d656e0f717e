package io.apiwarden.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code java -jar apiwarden-benchmarks.jar --soak [calls]}: a million managed calls (by default) through
 * the JDK client and OkHttp, in a child JVM with the agent, against the Netty server with tokens that
 * expire every {@link #TOKEN_LIFETIME} and a throttle window every {@link #THROTTLE_EVERY} API calls.
 * Prints how the calls ended, what the servers counted, and the app's heap, threads and open files
 * after a tenth of the calls, half and all.
 */
final class SoakRun {
    static final long DEFAULT_CALLS = 1_000_000;
    /** Whole seconds ({@code expires_in}); at a few thousand calls a second, an expiry every few thousand. */
    static final Duration TOKEN_LIFETIME = Duration.ofSeconds(2);

    static final int THROTTLE_EVERY = 5_000;
    /** Long enough that calls in flight meet it, short beside the back-off's 10 + 20 + 40 + 80 + 160 ms. */
    static final Duration THROTTLE_WINDOW = Duration.ofMillis(20);

    static final Duration BACKOFF_INITIAL_DELAY = Duration.ofMillis(10);
    /** The slowest this machine ever ran is ~3,000 calls a second; a tenth of that means the soak hangs. */
    private static final long MIN_CALLS_PER_SECOND = 300;

    /** The app's figures at one point of the soak. */
    static final class Figures {
        final String phase;
        final long heapBytes;
        final int threads;
        final long fileDescriptors;

        Figures(String phase, long heapBytes, int threads, long fileDescriptors) {
            this.phase = phase;
            this.heapBytes = heapBytes;
            this.threads = threads;
            this.fileDescriptors = fileDescriptors;
        }

        double heapMb() {
            return heapBytes / 1024.0 / 1024.0;
        }
    }

    /** What one soak did. */
    static final class Result {
        final long calls;
        final long millis;
        /** {@code {200=n, ...}} as the app counted; -1 for a call that ended without a response. */
        final String statuses;

        final Figures start;
        final Figures middle;
        final Figures end;
        final long apiRequests;
        final long tokenRequests;
        final long earlyTokenRequests;
        final long refusedGrants;
        final long expiries;
        final long expiredRefusals;
        final long throttleWindows;
        final long throttledCalls;

        Result(long calls, long millis, String statuses, List<Figures> figures, FastApiServer api, SoakConditions c) {
            this.calls = calls;
            this.millis = millis;
            this.statuses = statuses;
            this.start = figures.get(0);
            this.middle = figures.get(1);
            this.end = figures.get(2);
            this.apiRequests = api.apiRequests();
            this.tokenRequests = c.tokenRequests();
            this.earlyTokenRequests = c.earlyTokenRequests();
            this.refusedGrants = c.refusedGrants();
            this.expiries = c.expiriesByLastApiCall();
            this.expiredRefusals = c.expiredRefusals();
            this.throttleWindows = c.throttleWindows();
            this.throttledCalls = c.throttledCalls();
        }

        String toMarkdown() {
            StringBuilder md = new StringBuilder();
            md.append(String.format(
                    Locale.ROOT,
                    "- %,d calls in %.0f s (%,.0f a second), ended: %s%n",
                    calls,
                    millis / 1000.0,
                    calls * 1000.0 / millis,
                    statuses));
            md.append(String.format(
                    Locale.ROOT,
                    "- API requests %,d (resends included); %,d throttle windows, %,d requests "
                            + "answered 429; %,d answered 401 for an expired token%n",
                    apiRequests,
                    throttleWindows,
                    throttledCalls,
                    expiredRefusals));
            md.append(String.format(
                    Locale.ROOT,
                    "- tokens expired %,d, token requests %,d (%d early, %d refused)%n%n",
                    expiries,
                    tokenRequests,
                    earlyTokenRequests,
                    refusedGrants));
            md.append("| app JVM | after a tenth | after half | at the end |\n|---|---|---|---|\n");
            md.append(String.format(
                    Locale.ROOT,
                    "| heap used after a full GC | %.1f MB | %.1f MB | %.1f MB |%n",
                    start.heapMb(),
                    middle.heapMb(),
                    end.heapMb()));
            md.append(String.format(
                    Locale.ROOT,
                    "| live threads (the soak's callers not counted) | %d | %d | %d |%n",
                    start.threads,
                    middle.threads,
                    end.threads));
            md.append(String.format(
                    Locale.ROOT,
                    "| open file descriptors | %d | %d | %d |%n",
                    start.fileDescriptors,
                    middle.fileDescriptors,
                    end.fileDescriptors));
            return md.toString();
        }
    }

    private SoakRun() {}

    static Result run(Path apiWardenJar, long calls, Duration tokenLifetime) throws IOException, InterruptedException {
        SoakConditions conditions = new SoakConditions(tokenLifetime, THROTTLE_EVERY, THROTTLE_WINDOW);
        try (OtlpSink sink = OtlpSink.start();
                FastApiServer api = FastApiServer.start(conditions)) {
            Target target = new Target(
                    api.baseUrl(),
                    api.authUrl(),
                    api.healthUrl(),
                    api.accessToken(),
                    sink.endpoint(),
                    apiWardenJar,
                    null);
            List<String> extra = List.of(
                    "-Dapiwarden.refresh-token-file=" + SecretFile.of(conditions.firstRefreshToken()),
                    "-Dapiwarden.backoff.initial-delay=" + BACKOFF_INITIAL_DELAY.toMillis() + "ms");
            Duration limit = Duration.ofSeconds(Math.max(300, calls / MIN_CALLS_PER_SECOND));
            ChildJvm.Run run = ChildJvm.run(
                    AgentSetup.API_WARDEN, target, extra, limit, SoakLoad.CALLS_LINE, "soak", Long.toString(calls));
            List<Figures> figures = new ArrayList<>();
            for (String phase : List.of("start", "middle", "end")) {
                figures.add(figuresOf(run.lines, phase));
            }
            String[] ended = run.valuesOf(SoakLoad.CALLS_LINE);
            return new Result(calls, Long.parseLong(ended[0]), ended[1], figures, api, conditions);
        }
    }

    private static Figures figuresOf(List<String> lines, String phase) {
        String prefix = SoakLoad.FIGURE_LINE + " " + phase + " ";
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                String[] v = line.substring(prefix.length()).trim().split(" ");
                return new Figures(phase, Long.parseLong(v[0]), Integer.parseInt(v[1]), Long.parseLong(v[2]));
            }
        }
        throw new IllegalStateException("the soak printed no '" + prefix.trim() + "' line: " + lines);
    }

    /** {@code --soak [calls]}, the arguments after {@code --soak}. */
    static void main(Path apiWardenJar, String[] args) throws IOException, InterruptedException {
        long calls = args.length > 0 ? Long.parseLong(args[0].replace("_", "").replace(",", "")) : DEFAULT_CALLS;
        if (calls < 100) {
            throw new IllegalArgumentException("a soak needs at least 100 calls, not " + calls);
        }
        System.out.printf(
                Locale.ROOT,
                "== soak: %,d managed calls, tokens living %d s, a %d ms throttle window every %,d "
                        + "API calls, back-off from %d ms%n",
                calls,
                TOKEN_LIFETIME.toSeconds(),
                THROTTLE_WINDOW.toMillis(),
                THROTTLE_EVERY,
                BACKOFF_INITIAL_DELAY.toMillis());
        Result result = run(apiWardenJar, calls, TOKEN_LIFETIME);
        System.out.println();
        System.out.print(result.toMarkdown());
    }
}
