package io.apiwarden.telemetry;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.Telemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the views of all APIs of a {@link StartingTelemetry} share: the real telemetry once ready, the calls kept
 * until then (at most {@link #LIMIT}), and the JVM's exit.
 *
 * <p>The exit is the app's, not the telemetry's: when the JVM exits before the SDK is ready, the kept calls are
 * waited for (the SDK's start, their replay, then its last flush, each bounded) only when their spans have somewhere
 * to go: a collector that takes a connection ({@link ExitDestination}). A refused or silent one, or none, ends the
 * wait before it begins, and one line says how many calls' spans were dropped and why.
 */
final class KeptCalls implements Consumer<Runnable> {
    /** The calls and refreshes kept while the telemetry starts; an app makes a few, a busy server could make many. */
    static final int LIMIT = 256;
    /**
     * What an exit before the SDK is ready waits at most for it, when a collector answers: the bound of the SDK's
     * own last flush ({@code ExportGuard.EXIT_FLUSH_LIMIT}), which follows. Not read from there: that would
     * initialise the exporters' classes on the app's thread, which is what starting the SDK elsewhere avoids.
     */
    static final Duration READY_AT_EXIT = Duration.ofSeconds(1);

    final boolean tracing;
    volatile Telemetry real;
    /** Each kept call or refresh with the view it was made through; null once ready or exited. */
    private List<Kept> kept = new ArrayList<>();

    private int dropped;
    /** Set when the exit did not wait for the SDK; see {@link #exitedWithoutIt}. */
    private boolean exitedWithoutSdk;
    /** What to tell the real telemetry once it is ready, beside the kept calls (a fleet's window heard meanwhile). */
    private final List<Runnable> atReady = new ArrayList<>();
    /** The SDK's flush and stop at exit, once the SDK is up; run by {@link #exiting}, after the replay. */
    private volatile Runnable sdkExit;
    /** Counted down once the kept calls are replayed, or given up at exit. */
    private final CountDownLatch settled = new CountDownLatch(1);

    private final boolean otlpMetrics;
    private final Supplier<ExitDestination> destination;
    private final Duration readyAtExit;

    /**
     * @param tracing whether spans are recorded; {@code otlpMetrics} whether meters go over OTLP
     * @param destination where the kept calls' spans would go, asked only at an exit before the SDK is ready
     * @param readyAtExit what such an exit waits at most for the SDK to be ready, when a collector answers
     */
    KeptCalls(boolean tracing, boolean otlpMetrics, Supplier<ExitDestination> destination, Duration readyAtExit) {
        this.tracing = tracing;
        this.otlpMetrics = otlpMetrics;
        this.destination = destination;
        this.readyAtExit = readyAtExit;
    }

    /**
     * Released when the first kept call ends, or when the exit means to wait for the SDK: until then the SDK's start
     * waits (see {@link StartingTelemetry#start}), so that it does not take the CPU from the app's own start and first
     * call, and a short app that exits at once with no collector never pays for it.
     */
    private final CountDownLatch firstCallEnded = new CountDownLatch(1);

    /** A kept call ended: the SDK may start. */
    void callEnded() {
        firstCallEnded.countDown();
    }

    /**
     * Waits until the first kept call has ended (or the exit wants the SDK), {@code most} at the longest.
     *
     * @return whether that happened; false when {@code most} ran out
     */
    boolean awaitFirstCallEnd(Duration most) {
        try {
            return firstCallEnded.await(most.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            // Only the telemetry's own start thread waits here, and nothing of the agent interrupts it: the flag is
            // not kept, so that the SDK's start (a server's join, say) does not trip over it.
            return false;
        }
    }

    /**
     * Whether the JVM's exit went without waiting for the SDK: a start not yet begun then does not begin (its threads
     * would be made after the exit hook stopped the telemetry's own).
     */
    synchronized boolean exitedWithoutIt() {
        return exitedWithoutSdk;
    }

    /**
     * Runs {@code tell} once the telemetry is ready, after the kept calls' replay.
     *
     * @return false when it is ready already (the caller tells it itself); true when kept, or when the JVM exits
     */
    synchronized boolean whenReady(Runnable tell) {
        if (real != null) {
            return false;
        }
        if (kept != null) {
            atReady.add(tell);
        }
        return true;
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

    /** Takes the SDK's flush and stop, to run at exit (see {@link TelemetryFactory#create}). */
    @Override
    public void accept(Runnable flushAndStop) {
        sdkExit = flushAndStop;
    }

    /** The telemetry is ready: the calls kept so far are told to it, and later ones go straight there. */
    void ready(Telemetry telemetry) {
        List<Kept> replay;
        List<Runnable> tell;
        int lost;
        synchronized (this) {
            if (kept == null) {
                // The exit gave them up already.
                settled.countDown();
                return;
            }
            real = telemetry;
            replay = kept;
            kept = null;
            tell = List.copyOf(atReady);
            atReady.clear();
            lost = dropped;
        }
        try {
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
            for (Runnable t : tell) {
                try {
                    t.run();
                } catch (RuntimeException e) {
                    AgentLog.once(
                            AgentLog.Level.WARN, "telemetry", "telemetry failed; calls go on without this meter", e);
                }
            }
        } finally {
            settled.countDown();
        }
        if (lost > 0) {
            AgentLog.warn(what(lost, 0) + " made while the telemetry started " + (lost == 1 ? "was" : "were")
                    + " not traced or metered: only " + LIMIT + " are kept until it is ready");
        }
    }

    /**
     * The JVM exits. Ready: the SDK flushes (bounded by its own exit). Still starting with calls kept: when a
     * destination may take their spans, waits for the SDK ({@code readyAtExit} at most) and their replay, then
     * flushes; otherwise gives them up at once and says how many, and why. Later calls are not kept.
     */
    void exiting() {
        int kept;
        synchronized (this) {
            kept = this.kept == null ? 0 : this.kept.size() + dropped;
            if (real == null && kept == 0) {
                // Nothing made before the SDK's start would be lost, and nothing of it is to flush.
                this.kept = null;
                exitedWithoutSdk = true;
                return;
            }
        }
        if (real == null) {
            String why = destination.get().whyNotWait(tracing, otlpMetrics);
            if (why != null) {
                synchronized (this) {
                    exitedWithoutSdk = real == null;
                }
                giveUp(why.isEmpty() ? null : why, AgentLog.Level.WARN);
                return;
            }
        }
        // Ready, or worth waiting for: the SDK's start (when it is still starting, now if it still waited for the
        // first call's end) and the kept calls' replay.
        firstCallEnded.countDown();
        if (!awaitSettled()) {
            giveUp(
                    "the telemetry was not ready within " + readyAtExit.toMillis() + " ms of the exit",
                    AgentLog.Level.INFO);
            return;
        }
        Runnable flush = sdkExit;
        if (flush != null) {
            flush.run();
        }
    }

    private boolean awaitSettled() {
        try {
            return settled.await(readyAtExit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Drops what is still kept; {@code why}: the end of the line that says so, or null to say nothing. */
    private void giveUp(String why, AgentLog.Level level) {
        int lost;
        int refreshes = 0;
        synchronized (this) {
            if (kept == null) {
                return; // replayed meanwhile: the SDK has them, but is not waited for
            }
            lost = kept.size() + dropped;
            for (Kept k : kept) {
                refreshes += k.pending.isRefresh() ? 1 : 0;
            }
            kept = null;
        }
        if (why == null || lost == 0) {
            return;
        }
        String line = "the spans of " + what(lost - refreshes, refreshes)
                + " made while the telemetry started dropped at exit, " + why
                + "; the app's exit did not wait for them.";
        if (level == AgentLog.Level.WARN) {
            AgentLog.warn(line + " Point " + ExportGuard.OTLP_ENDPOINT_SETTING
                    + " at your collector, or set otel.traces.exporter=none to send none.");
        } else {
            AgentLog.info(line);
        }
    }

    /** "2 managed calls", "1 managed call and 1 token refresh": those not kept are counted as calls. */
    static String what(int calls, int refreshes) {
        String callsText = calls + " managed call" + (calls == 1 ? "" : "s");
        if (refreshes == 0) {
            return callsText;
        }
        String refreshText = refreshes + " token refresh" + (refreshes == 1 ? "" : "es");
        return calls == 0 ? refreshText : callsText + " and " + refreshText;
    }

    enum Keeping {
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
