package io.apiwarden.core;

import io.apiwarden.core.config.AgentConfig;
import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What finding a request's API costs with 1 and with 10 configured APIs, for docs/benchmarks.md (not a test; run
 * it with {@code java -cp agent/target/classes:agent/target/test-classes io.apiwarden.core.ApiRouterCost}). The
 * ten are the measured API, four more bases on its host and port, and five other hosts, as the per-call suite's
 * {@code apiwarden-10-apis} setup configures them. Warmed, then the mean of the best of five rounds.
 */
public final class ApiRouterCost {
    private static final String HOST = "127.0.0.1";
    private static final int PORT = 8080;
    private static volatile Warden sink;

    private ApiRouterCost() {}

    public static void main(String[] args) throws Exception {
        for (int apis : new int[] {1, 10}) {
            ApiRouter router = router(apis);
            System.out.printf(
                    "%2d API(s), managed   (GET /api/v1/user): %6.1f ns%n",
                    apis, nanos(() -> sink = router.forRequest("http", HOST, PORT, "/api/v1/user")));
            System.out.printf(
                    "%2d API(s), unmanaged (GET /health, same host and port): %6.1f ns%n",
                    apis, nanos(() -> sink = router.forRequest("http", HOST, PORT, "/health")));
            System.out.printf(
                    "%2d API(s), unmanaged (another host): %6.1f ns%n",
                    apis, nanos(() -> sink = router.forRequest("https", "cdn.example.com", -1, "/x")));
        }
    }

    private static ApiRouter router(int apis) throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("apiwarden.base-url", "http://" + HOST + ":" + PORT + "/api/v1");
        props.put("apiwarden.access-token", "cost-access-0");
        for (int i = 1; i < apis; i++) {
            String url = i <= 4
                    ? "http://" + HOST + ":" + PORT + "/other-" + i + "/v1"
                    : "https://api-" + i + ".example.invalid/v1";
            props.put("apiwarden.api.cost-" + i + ".base-url", url);
            props.put("apiwarden.api.cost-" + i + ".access-token", "cost-access-" + i);
        }
        AgentConfig config = AgentConfig.from(props::get, props.keySet(), Map.of(), List.of());
        MutableClock clock = MutableClock.atEpochDay();
        List<ApiRouter.Route> routes = new ArrayList<>();
        for (WardenConfig api : config.apis()) {
            Warden warden = new Warden(api, null, FakeTimer.atOnce(clock), clock);
            routes.add(new ApiRouter.Route(warden.scope(), () -> warden));
        }
        return new ApiRouter(routes);
    }

    private static double nanos(Runnable work) {
        int times = 5_000_000;
        double best = Double.MAX_VALUE;
        for (int round = 0; round < 6; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < times; i++) {
                work.run();
            }
            double each = (System.nanoTime() - start) / (double) times;
            // The first round warms up.
            best = round == 0 ? best : Math.min(best, each);
        }
        return best;
    }
}
