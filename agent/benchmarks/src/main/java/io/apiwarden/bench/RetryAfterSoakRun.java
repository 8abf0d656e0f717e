package io.apiwarden.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * {@code java -jar apiwarden-benchmarks.jar --retry-after-soak [resends]}: throttle windows one after the
 * other until the agent has resent {@link #DEFAULT_RESENDS} refused calls (by default), and whether any
 * resend reached the API before its refusal's {@code Retry-After} allowed ({@link RetryAfterSoakApi}).
 * The agent's own back-off starts at {@link #BACKOFF_INITIAL_DELAY}, far below {@code Retry-After}'s whole
 * seconds, so every wait is the header's: the gate and the per-call back-off must both take it.
 */
final class RetryAfterSoakRun {
    static final long DEFAULT_RESENDS = 10_000;
    static final Duration WINDOW = Duration.ofSeconds(1);
    /** A window every this long: the calls released at a window's end are answered before the next. */
    static final Duration PERIOD = Duration.ofMillis(2500);
    /** Long enough that every caller has a request in flight when a window opens: each is refused and resent. */
    static final Duration LATENCY = Duration.ofMillis(200);
    /**
     * The first three back-off waits (200, 400, 800 ms) are shorter than the shortest
     * {@code Retry-After} (1 s), so the waits measured come from the header; and a call's waits in all
     * are bounded by its whole back-off (31 × this: 6.2 s), which covers several refusals' headers
     * and the gate (a refusal late in a window still says 1 s, rounded up, and holds the gate past
     * the window's end). At 100 ms (3.1 s in all) 24 of 1,649 calls ran out of it on a busy machine
     * and got the 429; at 10 ms (310 ms) no call could honour a 1 s header at all.
     */
    static final Duration BACKOFF_INITIAL_DELAY = Duration.ofMillis(200);
    /** Per way: 4 ways × 40 callers, about 160 requests in flight. */
    static final int CALLERS_PER_WAY = 40;

    /** What one soak did, as the API counted it and the app saw it. */
    static final class Result {
        final long wantedResends;
        final long millis;
        final String statuses;
        final long requests;
        final long refusals;
        final long resends;
        final long earlyResends;
        final double leastMarginMillis;
        final long windows;

        Result(long wantedResends, long millis, String statuses, RetryAfterSoakApi api) {
            this.wantedResends = wantedResends;
            this.millis = millis;
            this.statuses = statuses;
            this.requests = api.requests();
            this.refusals = api.refusals();
            this.resends = api.resends();
            this.earlyResends = api.earlyResends();
            this.leastMarginMillis = api.leastMarginMillis();
            this.windows = api.windowsMet();
        }

        String toMarkdown() {
            return String.format(
                    Locale.ROOT,
                    "- %,d API requests in %.0f s; calls ended: %s%n"
                            + "- %,d throttle windows met, %,d refusals (429 with Retry-After), %,d resends%n"
                            + "- resends before Retry-After allowed: **%,d**; the promptest resend came %.1f ms after "
                            + "the allowed moment%n",
                    requests,
                    millis / 1000.0,
                    statuses,
                    windows,
                    refusals,
                    resends,
                    earlyResends,
                    leastMarginMillis);
        }
    }

    private RetryAfterSoakRun() {}

    static Result run(Path apiWardenJar, long resends) throws IOException, InterruptedException {
        String token = "soak-" + UUID.randomUUID();
        try (OtlpSink sink = OtlpSink.start();
                RetryAfterSoakApi api = RetryAfterSoakApi.start(WINDOW, PERIOD, LATENCY, token)) {
            Target target = new Target(
                    api.baseUrl(), api.authUrl(), api.healthUrl(), token, sink.endpoint(), apiWardenJar, null);
            List<String> extra =
                    List.of("-Dapiwarden.backoff.initial-delay=" + BACKOFF_INITIAL_DELAY.toMillis() + "ms");
            // About CALLERS_PER_WAY × 4 resends a window; twice the time that takes means it hangs.
            long windows = resends / (CALLERS_PER_WAY * 2) + 2;
            Duration limit = PERIOD.multipliedBy(windows).plusMinutes(2);
            ChildJvm.Run run = ChildJvm.run(
                    AgentSetup.API_WARDEN,
                    target,
                    extra,
                    limit,
                    RetryAfterSoakLoad.CALLS_LINE,
                    "retry-after-soak",
                    Long.toString(resends),
                    Integer.toString(CALLERS_PER_WAY));
            String[] ended = run.valuesOf(RetryAfterSoakLoad.CALLS_LINE);
            if (api.unauthorized() > 0 || api.unnamed() > 0) {
                throw new IllegalStateException(api.unauthorized() + " requests without the token and " + api.unnamed()
                        + " without a call number reached the soak's API");
            }
            return new Result(resends, Long.parseLong(ended[0]), ended[1], api);
        }
    }

    /** {@code --retry-after-soak [resends]}, the arguments after the option. */
    static void main(Path apiWardenJar, String[] args) throws IOException, InterruptedException {
        long resends = args.length > 0 ? Long.parseLong(args[0].replace("_", "").replace(",", "")) : DEFAULT_RESENDS;
        if (resends < 1) {
            throw new IllegalArgumentException("a soak needs at least 1 resend, not " + resends);
        }
        System.out.printf(
                Locale.ROOT,
                "== Retry-After soak: until %,d resends; a %d s window every %d ms, answers taking %d ms, "
                        + "%d callers in each of four ways, back-off from %d ms%n",
                resends,
                WINDOW.toSeconds(),
                PERIOD.toMillis(),
                LATENCY.toMillis(),
                CALLERS_PER_WAY,
                BACKOFF_INITIAL_DELAY.toMillis());
        Result result = run(apiWardenJar, resends);
        System.out.println();
        System.out.print(result.toMarkdown());
    }
}
