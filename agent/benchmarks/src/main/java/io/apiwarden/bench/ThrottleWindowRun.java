package io.apiwarden.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Callers meeting a global rate-limit window that is already in force: in each JVM one call opens
 * (or meets) the window, then {@code callers} calls start at once. What counts is how many requests
 * the API receives while the window holds, and when every call is done.
 */
final class ThrottleWindowRun {
    static final Duration WINDOW = Duration.ofSeconds(3);

    /** One run's outcome, summed over its JVMs. */
    static final class Figure {
        final ThrottleWindowApi.Mode mode;
        final int jvms;
        final int callersPerJvm;
        final int ok;
        final int failed;
        final long requestsDuringWindow;
        final long requests;
        final long slowestMillis;

        Figure(
                ThrottleWindowApi.Mode mode,
                int jvms,
                int callersPerJvm,
                int ok,
                int failed,
                long requestsDuringWindow,
                long requests,
                long slowestMillis) {
            this.mode = mode;
            this.jvms = jvms;
            this.callersPerJvm = callersPerJvm;
            this.ok = ok;
            this.failed = failed;
            this.requestsDuringWindow = requestsDuringWindow;
            this.requests = requests;
            this.slowestMillis = slowestMillis;
        }
    }

    private final java.nio.file.Path apiWardenJar;

    ThrottleWindowRun(java.nio.file.Path apiWardenJar) {
        this.apiWardenJar = apiWardenJar;
    }

    Figure run(ThrottleWindowApi.Mode mode, int jvms, int callersPerJvm) throws IOException {
        String token = "window-" + UUID.randomUUID();
        try (ThrottleWindowApi api = ThrottleWindowApi.start(mode, WINDOW, token)) {
            Target target = new Target(api.baseUrl(), api.authUrl(), api.healthUrl(), token, null, apiWardenJar, null);
            List<CompletableFuture<ChildJvm.Run>> running = new ArrayList<>();
            for (int i = 0; i < jvms; i++) {
                running.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return ChildJvm.run(
                                AgentSetup.API_WARDEN_UNTRACED,
                                target,
                                List.of(),
                                ProcessProbe.WINDOW_LINE,
                                "window",
                                Integer.toString(callersPerJvm));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }));
            }
            int ok = 0;
            int failed = 0;
            long slowest = 0;
            for (CompletableFuture<ChildJvm.Run> r : running) {
                String[] v = r.join().valuesOf(ProcessProbe.WINDOW_LINE);
                slowest = Math.max(slowest, Long.parseLong(v[0]));
                ok += Integer.parseInt(v[1]);
                failed += Integer.parseInt(v[2]);
            }
            if (api.unauthorized() > 0) {
                throw new IllegalStateException(api.unauthorized() + " calls reached the window API without its token");
            }
            Figure f = new Figure(
                    mode, jvms, callersPerJvm, ok, failed, api.requestsDuringWindow(), api.requests(), slowest);
            System.out.printf(
                    "  %-34s %d JVM(s) x %-4d %d ok, %d failed, %d requests during the %d s window (%d in all), "
                            + "all done in %d ms%n",
                    mode.label,
                    jvms,
                    callersPerJvm,
                    ok,
                    failed,
                    f.requestsDuringWindow,
                    WINDOW.getSeconds(),
                    f.requests,
                    slowest);
            return f;
        }
    }
}
