package io.apiwarden.bench;

import io.apiwarden.demo.ApiCounters;
import io.apiwarden.demo.SimulatedApi;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Many concurrent callers at once, each in a fresh JVM, against a simulated API of its own:
 * <ul>
 *   <li><b>refresh storm</b>: every caller starts with an expired access token;
 *   <li><b>throttle storm</b>: the global limit lets half the callers through and throttles the rest.
 * </ul>
 * The server counts what reached it; the probe times the calls from the first sent to the last answered.
 */
final class StormRun {
    /** A throttle as short as {@code Retry-After} can say (whole seconds). */
    static final Duration THROTTLE_PERIOD = Duration.ofSeconds(1);
    /** Long enough that no token runs out during a storm. */
    static final Duration TOKEN_LIFETIME = Duration.ofHours(1);

    enum Kind {
        REFRESH("refresh storm"),
        THROTTLE("throttle storm");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One storm's outcome. */
    static final class Figure {
        final Kind kind;
        final AgentSetup setup;
        final int callers;
        final long millisToAllDone;
        final int ok;
        final int failed;
        final long apiRequests;
        final long tokenRequests;

        Figure(
                Kind kind,
                AgentSetup setup,
                int callers,
                long millisToAllDone,
                int ok,
                int failed,
                long apiRequests,
                long tokenRequests) {
            this.kind = kind;
            this.setup = setup;
            this.callers = callers;
            this.millisToAllDone = millisToAllDone;
            this.ok = ok;
            this.failed = failed;
            this.apiRequests = apiRequests;
            this.tokenRequests = tokenRequests;
        }
    }

    private final Path apiWardenJar;
    private final URI otlpEndpoint;

    StormRun(Path apiWardenJar, URI otlpEndpoint) {
        this.apiWardenJar = apiWardenJar;
        this.otlpEndpoint = otlpEndpoint;
    }

    Figure run(Kind kind, AgentSetup setup, int callers) throws IOException, InterruptedException {
        SimulatedApi.Settings.Builder settings = SimulatedApi.Settings.builder().tokenLifetime(TOKEN_LIFETIME);
        if (kind == Kind.THROTTLE) {
            settings.rateLimit(Math.max(1, callers / 2), Duration.ofMinutes(1)).throttlePeriod(THROTTLE_PERIOD);
        } else {
            settings.rateLimit(Integer.MAX_VALUE, Duration.ofMinutes(1));
        }
        try (SimulatedApi api = new SimulatedApi(settings.build()).start()) {
            String token = kind == Kind.REFRESH ? api.staleAccessToken() : TokenGrant.accessToken(api);
            Target target =
                    new Target(api.baseUrl(), api.authUrl(), api.healthUrl(), token, otlpEndpoint, apiWardenJar, null);
            List<String> extra = new ArrayList<>();
            if (setup == AgentSetup.API_WARDEN) {
                extra.add("-Dapiwarden.refresh-token-file=" + SecretFile.of(api.currentRefreshToken()));
            }
            ApiCounters counters = api.counters();
            long apiBefore = counters.apiRequests();
            long tokenBefore = counters.tokenRequests();
            ChildJvm.Run run =
                    ChildJvm.run(setup, target, extra, ProcessProbe.STORM_LINE, "storm", Integer.toString(callers));
            String[] v = run.valuesOf(ProcessProbe.STORM_LINE);
            Figure f = new Figure(
                    kind,
                    setup,
                    callers,
                    Long.parseLong(v[0]),
                    Integer.parseInt(v[1]),
                    Integer.parseInt(v[2]),
                    counters.apiRequests() - apiBefore,
                    counters.tokenRequests() - tokenBefore);
            System.out.printf(
                    "  %-15s %-12s N=%-5d %6d ms, %d ok, %d failed, %d API requests, %d token requests%n",
                    kind.label,
                    setup.label(),
                    callers,
                    f.millisToAllDone,
                    f.ok,
                    f.failed,
                    f.apiRequests,
                    f.tokenRequests);
            return f;
        }
    }
}
