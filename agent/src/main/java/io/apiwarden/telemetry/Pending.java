package io.apiwarden.telemetry;

import io.apiwarden.core.telemetry.Telemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A call or token refresh begun before the telemetry was ready: what happens to it is kept, each step with its
 * moment, until {@link #replay} tells it all to the real telemetry; from then on each step goes straight there.
 * One lock per call or refresh orders both, so a step never overtakes the replay; the replay does not hold it while
 * it tells the SDK.
 *
 * @param <T> what the steps act on once replayed: the call or refresh as the real telemetry sees it
 */
abstract class Pending<T> {
    private final long startEpochNanos =
            io.opentelemetry.sdk.common.Clock.getDefault().now();
    private final long startNanoTime = System.nanoTime();
    /**
     * The app's span when it began (invalid when there was none): the replayed span's parent. Kept as a span context
     * and made a {@link Context} only at the replay: the first use of OpenTelemetry's context storage sets up {@code
     * java.util.logging}, some 5 ms the app's first call would otherwise pay.
     */
    private final SpanContext appSpan;
    /** The trace the replayed span joins: the app's, or one chosen now for a call that starts a trace. */
    final String traceId;
    /** Whether the app's trace is sampled (a trace started here is). */
    final boolean sampled;
    /** Null once replayed. */
    private List<Step<T>> steps = new ArrayList<>();
    /** Set by the replay. */
    private T replayed;
    /** The thread telling the steps to the SDK, while it does; guarded by {@code this}. */
    private Thread replaying;

    Pending(SpanContext appSpan) {
        this.appSpan = appSpan;
        this.traceId =
                appSpan.isValid() ? appSpan.getTraceId() : IdGenerator.random().generateTraceId();
        this.sampled = !appSpan.isValid() || appSpan.isSampled();
    }

    /** The app's trace context when it began, for the replay. */
    private Context parent() {
        return appSpan.isValid() ? Context.root().with(Span.wrap(appSpan)) : Context.root();
    }

    /** Begins it in the real telemetry, as it began: at the first moment, with this parent (and span id). */
    abstract T begin(Telemetry real);

    /** Keeps {@code step}, or, once replayed, does it at once. */
    final synchronized void record(Consumer<T> step) {
        record(null, step);
    }

    /** As {@link #record(Consumer)}; {@code spanId}: the id of the span the step starts, chosen already. */
    final synchronized void record(String spanId, Consumer<T> step) {
        if (steps != null) {
            steps.add(new Step<>(System.nanoTime(), spanId, step));
        } else {
            step.accept(replayed);
        }
    }

    /** The id of the span {@link #begin} starts, when it was chosen already (it went on the wire). */
    String spanId() {
        return null;
    }

    /**
     * Tells everything so far to {@code real}, at the moments it happened; later steps go straight there. The steps
     * are told without the lock held: the first replayed span can take the SDK a while (its classes load then), and
     * an app thread (an event loop, say) ending the call meanwhile only adds its step to the list, which this drains
     * before it lets steps go straight through.
     */
    final void replay(Telemetry real) {
        List<T> holder = new ArrayList<>(1);
        synchronized (this) {
            replaying = Thread.currentThread();
        }
        try {
            // Made once for the whole replay, on the SDK's thread.
            Context parent = parent();
            at(parent, startNanoTime, spanId()).run(new Begin<>(this, real, holder));
            T began = holder.get(0);
            int told = 0;
            while (true) {
                Step<T> next;
                synchronized (this) {
                    if (told == steps.size()) {
                        replayed = began;
                        steps = null;
                        replaying = null;
                        notifyAll();
                        return;
                    }
                    next = steps.get(told++);
                }
                at(parent, next.nanoTime, next.spanId).run(new Tell<>(next, began));
            }
        } finally {
            synchronized (this) {
                if (steps != null) {
                    // The replay failed: what is left is dropped, and later steps record nothing.
                    steps = null;
                    replayed = holder.isEmpty() ? nothing() : holder.get(0);
                }
                replaying = null;
                notifyAll();
            }
        }
    }

    /** What the steps act on when the replay failed: records nothing. */
    abstract T nothing();

    /**
     * The replayed call or refresh, or null before the replay. While the replay is under way (on another thread) it
     * waits for its end: what asks needs the replayed span (a refresh's parent, an attempt's trace context), and
     * before it would have none. Only these wait; a step to record never does.
     */
    final synchronized T replayed() {
        boolean interrupted = false;
        while (replaying != null && replaying != Thread.currentThread()) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return steps == null ? replayed : null;
    }

    private ReplayMoment at(Context parent, long nanoTime, String spanId) {
        return new ReplayMoment(startEpochNanos, startNanoTime, nanoTime, parent, traceId, spanId);
    }

    private static final class Step<T> {
        final long nanoTime;
        final String spanId;
        final Consumer<T> action;

        Step(long nanoTime, String spanId, Consumer<T> action) {
            this.nanoTime = nanoTime;
            this.spanId = spanId;
            this.action = action;
        }
    }

    /** Whether this is a token refresh rather than a managed call, for the line that counts what was dropped. */
    boolean isRefresh() {
        return false;
    }

    // Classes, not lambdas: each lambda costs a class spun as the first kept call is replayed (docs/benchmarks.md).
    private static final class Begin<T> implements Runnable {
        private final Pending<T> pending;
        private final Telemetry real;
        private final List<T> holder;

        Begin(Pending<T> pending, Telemetry real, List<T> holder) {
            this.pending = pending;
            this.real = real;
            this.holder = holder;
        }

        @Override
        public void run() {
            holder.add(pending.begin(real));
        }
    }

    private static final class Tell<T> implements Runnable {
        private final Step<T> step;
        private final T began;

        Tell(Step<T> step, T began) {
            this.step = step;
            this.began = began;
        }

        @Override
        public void run() {
            step.action.accept(began);
        }
    }
}
