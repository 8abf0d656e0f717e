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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The agent's telemetry while the real one (the OpenTelemetry SDK, its exporters, the meter registry) starts on a
 * thread of its own, so that no app thread waits for it. The calls and token refreshes begun before it is ready
 * are kept, at most {@link #LIMIT} of them, and told to it once it is, with their own times, parents and span ids
 * ({@link Pending}); those beyond the limit are managed without spans or meters, and counted in one line.
 * Once ready, it hands every call straight to the real telemetry.
 */
public final class StartingTelemetry implements Telemetry {
    /** The calls and refreshes kept while the telemetry starts; an app makes a few, a busy server could make many. */
    static final int LIMIT = 256;
    /**
     * What the exit waits at most for the kept calls to reach an SDK that is ready: only an exit that comes between
     * the SDK's start and the replay's end waits, and the replay takes a few milliseconds.
     */
    static final java.time.Duration REPLAY_AT_EXIT = java.time.Duration.ofMillis(200);

    private final Startup startup;
    /** The API this view is of, or null: the real telemetry itself. */
    private final String api;

    private volatile Telemetry forApi;

    /** @param tracing whether spans are recorded: else the kept calls' requests carry no trace context */
    StartingTelemetry(boolean tracing) {
        this(new Startup(tracing), null);
    }

    private StartingTelemetry(Startup startup, String api) {
        this.startup = startup;
        this.api = api;
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
        StartingTelemetry starting = new StartingTelemetry(config.tracingEnabled());
        Thread start = new Thread(
                () -> {
                    Telemetry real = Telemetry.NOOP;
                    try {
                        real = TelemetryFactory.create(config, clock, unwrapped, starting.startup);
                    } catch (RuntimeException | LinkageError e) {
                        AgentLog.error("the telemetry could not start, calls are managed without spans or meters", e);
                    } finally {
                        starting.ready(real);
                    }
                },
                "apiwarden-telemetry-start");
        start.setDaemon(true);
        // The threads the SDK makes (exporter, timer) inherit this: not the loader of whichever app got here first.
        start.setContextClassLoader(ClassLoader.getSystemClassLoader());
        Runtime.getRuntime().addShutdownHook(new Thread(starting::exiting, "apiwarden-telemetry-exit"));
        start.start();
        return GuardedTelemetry.of(starting);
    }

    /** The real telemetry of this view once ready, or null. */
    private Telemetry real() {
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

    /** The JVM exits: what is still kept is dropped, and a line says how much. */
    void exiting() {
        startup.exiting();
    }

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        Telemetry r = real();
        if (r != null) {
            return r.call(method, url, host, port);
        }
        PendingCall call = new PendingCall(method, url, host, port, startup.tracing);
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
    public Telemetry forApi(String name) {
        return new StartingTelemetry(startup, name);
    }

    /** A token refresh begun before the telemetry was ready. */
    private static final class PendingRefresh extends Pending<RefreshObserver> implements RefreshObserver {
        private final URI tokenUrl;
        private final String grant;
        /** The kept call that started it, replayed before it (it was kept first), or null. */
        private final PendingCall caller;

        PendingRefresh(URI tokenUrl, String grant, PendingCall caller) {
            super(AppTraceContext.parent());
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

    /** What the views of all APIs share: the real telemetry once ready, and what is kept until then. */
    private static final class Startup implements KeptCalls {
        final boolean tracing;
        volatile Telemetry real;
        /** Each kept call or refresh with the view it was made through; null once ready or exiting. */
        private List<Kept> kept = new ArrayList<>();

        private int dropped;
        /** Kept calls being replayed: the JVM's exit, which does not wait for them, may lose them. */
        private int replaying;
        /** Set once the SDK is up and will flush at exit: the exit then awaits the replay rather than drop. */
        private volatile boolean flushedAtExit;
        /** Counted down once the kept calls are replayed (or there is nothing to replay). */
        final java.util.concurrent.CountDownLatch settled = new java.util.concurrent.CountDownLatch(1);

        Startup(boolean tracing) {
            this.tracing = tracing;
        }

        /** Keeps {@code pending} to replay, unless the limit is reached, the JVM exits, or the telemetry is ready. */
        synchronized Keeping keep(StartingTelemetry view, Pending<?> pending) {
            if (kept == null) {
                return real == null ? Keeping.DROPPED : Keeping.READY;
            }
            if (kept.size() >= LIMIT) {
                dropped++;
                return Keeping.DROPPED;
            }
            kept.add(new Kept(view, pending));
            return Keeping.KEPT;
        }

        @Override
        public void flushedAtExit() {
            flushedAtExit = true;
        }

        /**
         * At the JVM's exit, before the SDK's last flush: when the SDK is up but the kept calls are not replayed
         * into it yet (the exit came in between), waits for them, {@link #REPLAY_AT_EXIT} at most.
         */
        @Override
        public void awaitReplay() {
            try {
                settled.await(REPLAY_AT_EXIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void ready(Telemetry telemetry) {
            List<Kept> replay;
            int lost;
            synchronized (this) {
                if (kept == null) {
                    settled.countDown();
                    return;
                }
                real = telemetry;
                replay = kept;
                kept = null;
                lost = dropped;
                replaying = replay.size();
            }
            for (Kept k : replay) {
                try {
                    k.pending.replay(k.view.real());
                } catch (RuntimeException e) {
                    AgentLog.once(
                            AgentLog.Level.WARN,
                            "telemetry",
                            "telemetry failed; calls go on without this span or meter",
                            e);
                }
            }
            synchronized (this) {
                replaying = 0;
            }
            settled.countDown();
            if (lost > 0) {
                AgentLog.warn(lost + " managed calls made while the telemetry started were not traced or metered: only "
                        + LIMIT + " are kept until it is ready");
            }
        }

        void exiting() {
            if (flushedAtExit) {
                // The SDK's own exit awaits the replay; this says only what it may still have missed.
                awaitReplay();
            }
            int lost;
            int late;
            synchronized (this) {
                late = kept == null ? replaying : 0;
                lost = kept == null ? 0 : kept.size() + dropped;
                replaying = 0;
                kept = null;
            }
            if (lost > 0) {
                AgentLog.info("the telemetry was still starting at exit: the spans and meters of " + lost
                        + " managed calls made before it was ready were dropped");
            } else if (late > 0) {
                // The SDK became ready as the JVM exited: its flush at exit, run beside this, may have missed them.
                AgentLog.info("the telemetry became ready as the JVM exited: the spans of " + late
                        + " managed calls made before then may not have been sent");
            }
        }
    }

    private enum Keeping {
        KEPT,
        /** Managed without spans or meters: the limit is reached, or the JVM exits. */
        DROPPED,
        /** Not needed: the telemetry became ready meanwhile. */
        READY
    }

    private static final class Kept {
        final StartingTelemetry view;
        final Pending<?> pending;

        Kept(StartingTelemetry view, Pending<?> pending) {
            this.view = view;
            this.pending = pending;
        }
    }
}
