package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.RotatingTokenService.Issued;
import io.apiwarden.it.apps.BusyApp;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} at random moments while the app's refresh tokens rotate, restarting the app with
 * the same file each time. After each kill the file must hold the token service's current refresh
 * token, whole, unless the kill fell between the service sending a new one and the agent's rename
 * (the write window), which no client can close; those kills are counted apart, with how long after
 * the response they came. Throughout, the service checks that no access token was used before its
 * refresh token was in the file.
 *
 * <p>The normal suite kills {@value #DEFAULT_KILLS} times; the full run (see docs/reliability.md):
 * {@code ./mvnw -B -ntp verify -pl agent -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=RefreshTokenCrashIT -Dapiwarden.crash.kills=50}.
 */
class RefreshTokenCrashIT {
    static final String KILLS_PROPERTY = "apiwarden.crash.kills";
    static final String SEED_PROPERTY = "apiwarden.crash.seed";
    /** Milliseconds the token service takes to answer; 0 (the default) is a local service without TLS. */
    static final String TOKEN_LATENCY_PROPERTY = "apiwarden.crash.token-latency-ms";

    private static final int DEFAULT_KILLS = 5;
    /** Half the kills come this soon after a token response, where the write happens... */
    private static final long NEAR_RESPONSE_MICROS = TimeUnit.MILLISECONDS.toMicros(10);
    /** ...the other half anywhere in the ~0.8 s until the next refresh. */
    private static final long REFRESH_CYCLE_MICROS = TimeUnit.MILLISECONDS.toMicros(800);
    /** A fresh JVM with the agent starts and refreshes within seconds; this means it is stuck. */
    private static final long STEP_TIMEOUT_SECONDS = 60;

    @TempDir
    Path dir;

    @Test
    void aKilledAppLeavesTheCurrentRefreshTokenInItsFile() throws Exception {
        int kills = Integer.getInteger(KILLS_PROPERTY, DEFAULT_KILLS);
        long seed = Long.getLong(SEED_PROPERTY, System.nanoTime());
        Random random = new Random(seed);
        Path file = dir.resolve("refresh-token");
        long latencyMillis = Long.getLong(TOKEN_LATENCY_PROPERTY, 0);
        RotatingTokenService service = new RotatingTokenService(file, latencyMillis);
        Files.writeString(file, service.signIn() + "\n");
        List<Double> inWindowMillis = new ArrayList<>();
        Set<Integer> warmRuns = new HashSet<>();
        List<String> outputs = new ArrayList<>();
        int current = 0;

        try (MockWebServer server = new MockWebServer();
                FileReplacements replacements = new FileReplacements(file)) {
            server.setDispatcher(service);
            server.start(0);
            for (int run = 1; run <= kills; run++) {
                service.startRun(run);
                AgentJvm jvm = new AgentJvm()
                        .property(
                                "apiwarden.base-url",
                                server.url(RotatingTokenService.apiPath(run)).toString())
                        .property(
                                "apiwarden.auth-url",
                                server.url(RotatingTokenService.authPath(run)).toString())
                        .property("apiwarden.refresh-token-file", file.toString());
                if (run % 2 == 0) {
                    // An access token kept from before, which the API refuses: the first refresh then comes after
                    // an API call, as in an app that ran a while, instead of being the JVM's first HTTP exchange.
                    jvm.property("apiwarden.access-token", "stale-access-" + run);
                    warmRuns.add(run);
                }
                AgentJvm.Running app = jvm.start(
                        BusyApp.class,
                        server.url(RotatingTokenService.apiPath(run) + "/user").toString(),
                        Long.toString(2 * STEP_TIMEOUT_SECONDS));
                // The first refresh of a JVM or the one after it: cold and warm code paths.
                int refreshes = 1 + random.nextInt(2);
                boolean refreshed = service.awaitRefreshes(refreshes, STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                long delayMicros = (long)
                        (random.nextDouble() * (random.nextBoolean() ? NEAR_RESPONSE_MICROS : REFRESH_CYCLE_MICROS));
                if (refreshed) {
                    TimeUnit.MICROSECONDS.sleep(delayMicros);
                }
                long killedAt = System.nanoTime();
                app.process.destroyForcibly();
                service.endRun();
                assertThat(app.process.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .as("run %d ended", run)
                        .isTrue();
                AgentJvm.Result result = app.result();
                outputs.add(result.all());
                assertThat(refreshed)
                        .as("run %d refreshed %d times: %s", run, refreshes, result)
                        .isTrue();

                String content = Files.readString(file);
                assertThat(content)
                        .as("run %d: the file holds one whole token on one line", run)
                        .matches("[A-Za-z0-9-]+\n");
                Issued kept = service.issuedAs(content.trim());
                Issued now = service.current();
                assertThat(kept)
                        .as("run %d: the file holds a token the service issued", run)
                        .isNotNull();
                if (kept == now) {
                    current++;
                } else {
                    assertThat(now.number)
                            .as(
                                    "run %d: the file is at most one refresh behind (#%d kept, #%d current)",
                                    run, kept.number, now.number)
                            .isEqualTo(kept.number + 1);
                    inWindowMillis.add((killedAt - now.sentNanos) / 1e6);
                    // The rotated token died with the app: the user signs in again, as they would have to.
                    Files.writeString(file, service.signIn() + "\n");
                }
            }
            Windows windows = Windows.of(replacements.seen(), service, warmRuns);
            System.out.printf(
                    Locale.ROOT,
                    "[crash] %d kills (seed %d, token service latency %d ms): %d left the current "
                            + "refresh token, %d came inside the write window (ms from response to kill: %s); %d token requests reached the service after "
                            + "the kill; leftover files: %s%n"
                            + "[crash] window, response sent -> file renamed: first refresh of a JVM, as its first HTTP "
                            + "exchange %s; after a refused API call %s; later refreshes %s%n",
                    kills,
                    seed,
                    latencyMillis,
                    current,
                    inWindowMillis.size(),
                    format(inWindowMillis),
                    service.lateRequests(),
                    leftovers(file),
                    windows.firstExchange,
                    windows.afterApiCall,
                    windows.later);
            assertThat(leftovers(file))
                    .as("a kill leaves at most the temporary file of the write it cut short, and the "
                            + "next start deletes it")
                    .hasSizeLessThanOrEqualTo(1);
        }

        assertThat(service.violations())
                .as("access tokens used before their refresh token was in the file")
                .isEmpty();
        assertThat(service.refusals())
                .as("a restarted app always had the current refresh token")
                .isEmpty();
        Set<String> tokens = service.issued().stream()
                .flatMap(i -> Stream.of(i.refreshToken, i.accessToken))
                .filter(t -> t != null)
                .collect(Collectors.toSet());
        assertThat(outputs).allSatisfy(out -> assertThat(tokens).noneMatch(out::contains));
    }

    private List<String> leftovers(Path file) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            // The store's own state, lease and lock files beside the token file are meant to stay; temporary files are
            // not.
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.endsWith(".tmp"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static String format(List<Double> millis) {
        return millis.stream()
                .sorted()
                .map(m -> String.format(Locale.ROOT, "%.1f", m))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** The write windows seen from outside: for each rotated token, its response sent to its file renamed. */
    static final class Windows {
        final Summary firstExchange;
        final Summary afterApiCall;
        final Summary later;

        private Windows(Summary firstExchange, Summary afterApiCall, Summary later) {
            this.firstExchange = firstExchange;
            this.afterApiCall = afterApiCall;
            this.later = later;
        }

        /** @param warmRuns the runs whose first refresh followed an API call */
        static Windows of(List<FileReplacements.Seen> seen, RotatingTokenService service, Set<Integer> warmRuns) {
            List<Double> firstExchange = new ArrayList<>();
            List<Double> afterApiCall = new ArrayList<>();
            List<Double> later = new ArrayList<>();
            Set<Integer> counted = new HashSet<>();
            for (FileReplacements.Seen s : seen) {
                Issued i = service.issuedAs(s.content);
                // A token seen before its response left was replaced twice in a row: no figure for it.
                if (i != null && i.byRefresh() && s.nanos >= i.sentNanos && counted.add(i.number)) {
                    List<Double> kind = i.ofRun > 1 ? later : warmRuns.contains(i.run) ? afterApiCall : firstExchange;
                    kind.add((s.nanos - i.sentNanos) / 1e6);
                }
            }
            return new Windows(new Summary(firstExchange), new Summary(afterApiCall), new Summary(later));
        }
    }

    /** Median and maximum of a list of milliseconds. */
    static final class Summary {
        final int count;
        final double median;
        final double max;

        Summary(List<Double> millis) {
            List<Double> sorted = millis.stream().sorted().collect(Collectors.toList());
            count = sorted.size();
            median = sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() / 2);
            max = sorted.isEmpty() ? Double.NaN : sorted.get(sorted.size() - 1);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "median %.2f ms, max %.2f ms (%d rotations)", median, max, count);
        }
    }
}
