package io.apiwarden.telemetry;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.Clock;
import io.opentelemetry.sdk.trace.IdGenerator;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import java.time.Instant;

/**
 * The moment, parent and ids of a call made before the SDK was ready, while {@link StartingTelemetry} tells it to
 * the real telemetry: the SDK's clock and id generator, and the agent's own durations, read them from here on the
 * replaying thread, so that a replayed span has the times the call really had and the ids its request already
 * carried on the wire ({@code traceparent}). On every other thread, and outside a replay, they are the system's.
 */
final class ReplayMoment {
    private static final ThreadLocal<ReplayMoment> CURRENT = new ThreadLocal<>();

    /** The SDK's clock: the replayed moment, else the system's. */
    static final Clock CLOCK = new Clock() {
        @Override
        public long now() {
            ReplayMoment m = CURRENT.get();
            return m == null ? Clock.getDefault().now() : m.epochNanos();
        }

        @Override
        public long nanoTime() {
            ReplayMoment m = CURRENT.get();
            return m == null ? System.nanoTime() : m.nanoTime;
        }
    };

    /** The SDK's ids: those chosen when the call was made, else random ones. */
    static final IdGenerator IDS = new IdGenerator() {
        @Override
        public String generateSpanId() {
            ReplayMoment m = CURRENT.get();
            return m == null || m.spanId == null ? IdGenerator.random().generateSpanId() : m.spanId;
        }

        @Override
        public String generateTraceId() {
            ReplayMoment m = CURRENT.get();
            return m == null || m.traceId == null ? IdGenerator.random().generateTraceId() : m.traceId;
        }
    };

    private final long startEpochNanos;
    private final long startNanoTime;
    private final long nanoTime;
    private final Context parent;
    private final String traceId;
    private final String spanId;

    /**
     * @param startEpochNanos the wall time of the call's start, read once with {@code startNanoTime}; later moments
     *     of the same call are placed from there by {@code nanoTime}, as the SDK's own clock does
     */
    ReplayMoment(
            long startEpochNanos, long startNanoTime, long nanoTime, Context parent, String traceId, String spanId) {
        this.startEpochNanos = startEpochNanos;
        this.startNanoTime = startNanoTime;
        this.nanoTime = nanoTime;
        this.parent = parent;
        this.traceId = traceId;
        this.spanId = spanId;
    }

    /** A tracer provider that reads its clock and ids from the replayed moment. */
    static SdkTracerProviderBuilder replayable(SdkTracerProviderBuilder builder) {
        return builder.setClock(CLOCK).setIdGenerator(IDS);
    }

    /** Runs {@code work} at this moment, on this thread. */
    void run(Runnable work) {
        ReplayMoment outer = CURRENT.get();
        CURRENT.set(this);
        try {
            work.run();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }

    /**
     * Now, or during a replay the moment the replayed step happened: for a reading relative to "now" (a rate limit's
     * reset in seconds) taken while a kept call is replayed.
     */
    static Instant instant(java.time.Clock clock) {
        ReplayMoment m = CURRENT.get();
        if (m == null) {
            return clock.instant();
        }
        long epochNanos = m.epochNanos();
        return Instant.ofEpochSecond(0, epochNanos);
    }

    private long epochNanos() {
        return startEpochNanos + (nanoTime - startNanoTime);
    }

    /** The monotonic time the agent's own durations are measured with: the replayed one during a replay. */
    static long nanoTime() {
        ReplayMoment m = CURRENT.get();
        return m == null ? System.nanoTime() : m.nanoTime;
    }

    /** The app's trace context as it was when the replayed call was made; outside a replay, as it is now. */
    static Context appParent() {
        ReplayMoment m = CURRENT.get();
        return m == null || m.parent == null ? AppTraceContext.parent() : m.parent;
    }
}
