package io.apiwarden.telemetry;

import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.Telemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.time.Clock;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The start of the real telemetry, on its own thread ({@link StartingTelemetry#start}): a class, not a lambda, which
 * would cost a class spun as the app builds its first managed client (docs/benchmarks.md).
 */
final class SdkStart implements Runnable {
    private final WardenConfig config;
    private final Clock clock;
    private final Function<Supplier<OpenTelemetrySdk>, OpenTelemetrySdk> unwrapped;
    private final KeptCalls startup;

    SdkStart(
            WardenConfig config,
            Clock clock,
            Function<Supplier<OpenTelemetrySdk>, OpenTelemetrySdk> unwrapped,
            KeptCalls startup) {
        this.config = config;
        this.clock = clock;
        this.unwrapped = unwrapped;
        this.startup = startup;
    }

    @Override
    public void run() {
        Telemetry real = Telemetry.NOOP;
        try {
            // Not at once: the app has just built its first managed client and is busy with its own start and its
            // first call, which the SDK's start (some 0.4 s of CPU) would slow.
            startup.awaitFirstCallEnd(StartingTelemetry.SDK_START_GRACE);
            if (!startup.exitedWithoutIt()) {
                real = TelemetryFactory.create(config, clock, unwrapped, startup);
            }
        } catch (RuntimeException | LinkageError e) {
            AgentLog.error("the telemetry could not start, calls are managed without spans or meters", e);
        } finally {
            startup.ready(real);
        }
    }
}
