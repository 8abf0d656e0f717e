package io.apiwarden.telemetry;

import io.apiwarden.core.config.WardenConfig;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.GuardedTelemetry;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's telemetry while the real one (the OpenTelemetry SDK, its exporters, the meter registry) starts on a
 * thread of its own, so that no app thread waits for it. The calls and token refreshes begun before it is ready
 * are kept, at most {@link KeptCalls#LIMIT} of them, and told to it once it is, with their own times, parents and span ids
 * ({@link Pending}); those beyond the limit are managed without spans or meters, and counted in one line.
 * Once ready, it hands every call straight to the real telemetry.
 *
 * <p>No lambdas on the start and the first calls: each costs a class spun at run time (docs/benchmarks.md).
 */
public final class StartingTelemetry implements Telemetry {
    /**
     * How long after the app's first managed client the SDK starts when no call has ended by then: the calls made
     * meanwhile are kept (at most {@link KeptCalls#LIMIT}) and replayed, as during the start itself.
     */
    static final Duration SDK_START_GRACE = Duration.ofSeconds(1);

    private final KeptCalls startup;
    /**
     * The end of the longest fleet window this view heard before the telemetry was ready ({@link System#nanoTime}),
     * told to it once, when it is ready: one entry however many windows are heard.
     */
    private final AtomicLong heardUntil = new AtomicLong();

    private final AtomicBoolean heardBeforeReady = new AtomicBoolean();
    /** The API this view is of, or null: the real telemetry itself. */
    private final String api;

    private volatile Telemetry forApi;
    /** Tells the kept calls that one ended: made once, not a method reference per call. */
    private final Runnable callEnded;

    /** @param startup what the views of all APIs share: the kept calls, the real telemetry once ready */
    StartingTelemetry(KeptCalls startup) {
        this(startup, null);
    }

    private StartingTelemetry(KeptCalls startup, String api) {
        this.startup = startup;
        this.api = api;
        this.callEnded = new CallEnded(startup);
    }

    /**
     * The telemetry of {@link TelemetryFactory#create}, made ready on a thread of the agent's own: the caller (the app's thread that
     * built its first managed client) does not wait for the SDK, its exporters and the meter registry. The calls
     * made meanwhile are kept and replayed into it once it is ready. Here, not in the factory, so that the app's
     * thread does not even load the types the factory's methods name (the SDK's, the registries').
     */
    public static Telemetry start(
            WardenConfig config, Clock clock, Function<Supplier<OpenTelemetrySdk>, OpenTelemetrySdk> unwrapped) {
        if (!config.tracingEnabled() && !config.metricsEnabled()) {
            return Telemetry.NOOP;
        }
        KeptCalls startup = new KeptCalls(
                config.tracingEnabled(),
                config.metricsEnabled() && ExitDestination.otlpMetricsAskedFor(),
                new ExitDestinations(),
                KeptCalls.READY_AT_EXIT);
        try {
            Thread start = new Thread(
                    TelemetryThreads.GROUP,
                    new SdkStart(config, clock, unwrapped, startup),
                    "apiwarden-telemetry-start");
            start.setDaemon(true);
            // The threads the SDK makes (exporter, timer) inherit this: not the loader of whichever app got here first.
            start.setContextClassLoader(ClassLoader.getSystemClassLoader());
            // The one exit hook: the SDK, ready or not by then, registers none of its own (see KeptCalls#exiting).
            // Then the threads of the telemetry's own that would hold the JVM's exit (TelemetryThreads).
            Runtime.getRuntime().addShutdownHook(new Thread(new AtExit(startup), "apiwarden-telemetry-exit"));
            start.start();
        } catch (RuntimeException | OutOfMemoryError e) {
            // The JVM exits already, makes no more threads, or refuses the thread's group: the calls go on without
            // spans or meters.
            AgentLog.warn("the telemetry could not start, calls are managed without spans or meters: " + e);
            return Telemetry.NOOP;
        }
        return GuardedTelemetry.of(new StartingTelemetry(startup));
    }

    /** The real telemetry of this view once ready, or null. */
    Telemetry real() {
        Telemetry r = startup.real;
        if (r == null || api == null) {
            return r;
        }
        Telemetry f = forApi;
        if (f == null) {
            synchronized (this) {
                if (forApi == null) {
                    forApi = r.forApi(api);
                }
                f = forApi;
            }
        }
        return f;
    }

    /** The telemetry is ready: the calls kept so far are told to it, and later ones go straight there. */
    void ready(Telemetry real) {
        startup.ready(real);
    }

    /** The JVM exits: see {@link KeptCalls#exiting}. */
    void exiting() {
        startup.exiting();
    }

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        Telemetry r = real();
        if (r != null) {
            return r.call(method, url, host, port);
        }
        PendingCall call = new PendingCall(method, url, host, port, startup.tracing, callEnded);
        switch (startup.keep(this, call)) {
            case KEPT:
                return call;
            case DROPPED:
                return CallObserver.NOOP;
            default:
                return call(method, url, host, port);
        }
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl) {
        return refresh(tokenUrl, null);
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl, String grant) {
        PendingCall caller = PendingCall.onThisThread();
        Telemetry r = real();
        if (r != null) {
            PendingCall.Replayed under = caller == null ? null : caller.replayed();
            if (under == null) {
                return r.refresh(tokenUrl, grant);
            }
            // Started by a call kept before the telemetry was ready: nested under that call's replayed span.
            try (Scope s = under.call.current()) {
                return r.refresh(tokenUrl, grant);
            }
        }
        PendingRefresh refresh = new PendingRefresh(tokenUrl, grant, caller);
        switch (startup.keep(this, refresh)) {
            case KEPT:
                return refresh;
            case DROPPED:
                return RefreshObserver.NOOP;
            default:
                return refresh(tokenUrl, grant);
        }
    }

    @Override
    public void fleetWindowHeard(java.time.Duration window) {
        // A gauge that says "held back now": a window heard before the telemetry is ready is told to it when it
        // is, for what is left of the window then, and not at all once it is over.
        Telemetry r = real();
        if (r != null) {
            r.fleetWindowHeard(window);
            return;
        }
        long until = System.nanoTime() + window.toNanos();
        if (!heardBeforeReady.compareAndSet(false, true)) {
            heardUntil.accumulateAndGet(until, (a, b) -> a - b >= 0 ? a : b);
            return;
        }
        heardUntil.set(until);
        boolean later = startup.whenReady(() -> {
            long left = heardUntil.get() - System.nanoTime();
            Telemetry t = real();
            if (left > 0 && t != null) {
                t.fleetWindowHeard(java.time.Duration.ofNanos(left));
            }
        });
        if (!later) {
            fleetWindowHeard(window); // ready meanwhile
        }
    }

    @Override
    public Telemetry forApi(String name) {
        return new StartingTelemetry(startup, name);
    }

    /** Where the exit flush would go, looked at when the JVM exits. */
    private static final class ExitDestinations implements Supplier<ExitDestination> {
        @Override
        public ExitDestination get() {
            return new ExitDestination();
        }
    }

    /** The exit hook: the kept calls' and the SDK's end, then the telemetry's own threads'. */
    private static final class AtExit implements Runnable {
        private final KeptCalls startup;

        AtExit(KeptCalls startup) {
            this.startup = startup;
        }

        @Override
        public void run() {
            try {
                startup.exiting();
            } finally {
                TelemetryThreads.exit();
            }
        }
    }

    private static final class CallEnded implements Runnable {
        private final KeptCalls startup;

        CallEnded(KeptCalls startup) {
            this.startup = startup;
        }

        @Override
        public void run() {
            startup.callEnded();
        }
    }

    /** A token refresh begun before the telemetry was ready. */
    private static final class PendingRefresh extends Pending<RefreshObserver> implements RefreshObserver {
        private final URI tokenUrl;
        private final String grant;
        /** The kept call that started it, replayed before it (it was kept first), or null. */
        private final PendingCall caller;

        @Override
        boolean isRefresh() {
            return true;
        }

        PendingRefresh(URI tokenUrl, String grant, PendingCall caller) {
            super(AppTraceContext.parentSpan());
            this.tokenUrl = tokenUrl;
            this.grant = grant;
            this.caller = caller;
        }

        @Override
        RefreshObserver begin(Telemetry real) {
            PendingCall.Replayed under = caller == null ? null : caller.replayed();
            if (under == null) {
                return real.refresh(tokenUrl, grant);
            }
            try (Scope s = under.call.current()) {
                return real.refresh(tokenUrl, grant);
            }
        }

        @Override
        RefreshObserver nothing() {
            return RefreshObserver.NOOP;
        }

        @Override
        public void end(String result) {
            record(r -> r.end(result));
        }

        @Override
        public void event(String name) {
            record(r -> r.event(name));
        }
    }
}
