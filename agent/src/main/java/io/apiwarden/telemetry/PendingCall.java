package io.apiwarden.telemetry;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.sdk.trace.IdGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A managed call made before the telemetry was ready (see {@link StartingTelemetry}). Its attempts' requests carry a
 * {@code traceparent} already, with span ids chosen here that the replayed spans then get, so that the API's own
 * spans join the same trace as if the SDK had been there.
 *
 * <p>The steps every call records are classes, not lambdas: each lambda costs a class spun on the first calls
 * (docs/benchmarks.md).
 */
final class PendingCall extends Pending<PendingCall.Replayed> implements CallObserver {
    private static final String TRACEPARENT = "traceparent";
    /** This call and its attempts, as the real telemetry sees them. */
    static final class Replayed {
        final CallObserver call;
        final List<AttemptObserver> attempts = new ArrayList<>();

        Replayed(CallObserver call) {
            this.call = call;
        }
    }

    /** The pending call made current on this thread (a token refresh it starts is its child). */
    private static final ThreadLocal<PendingCall> CURRENT = new ThreadLocal<>();

    private final String method;
    private final String url;
    private final String host;
    private final int port;
    private final String spanId = IdGenerator.random().generateSpanId();
    /** Whether spans are recorded: else its requests carry no trace context. */
    private final boolean tracing;

    private int attempts;
    /** Told when the call ends: the SDK's start waits for the first (KeptCalls#callEnded). */
    private final Runnable ended;

    PendingCall(String method, String url, String host, int port, boolean tracing, Runnable ended) {
        super(AppTraceContext.parentSpan());
        this.method = method;
        this.url = url;
        this.host = host;
        this.port = port;
        this.tracing = tracing;
        this.ended = ended;
    }

    /** The pending call current on this thread, or null. */
    static PendingCall onThisThread() {
        return CURRENT.get();
    }

    @Override
    String spanId() {
        return spanId;
    }

    @Override
    Replayed begin(Telemetry real) {
        return new Replayed(real.call(method, url, host, port));
    }

    @Override
    Replayed nothing() {
        return new Replayed(CallObserver.NOOP);
    }

    @Override
    public Scope current() {
        Replayed r = replayed();
        if (r != null) {
            return r.call.current();
        }
        PendingCall outer = CURRENT.get();
        CURRENT.set(this);
        return new RestoreCurrent(outer);
    }

    @Override
    public AttemptObserver attempt(boolean expectContinue) {
        String attemptSpanId = IdGenerator.random().generateSpanId();
        int index;
        synchronized (this) {
            index = attempts++;
        }
        record(attemptSpanId, new AttemptBegun(expectContinue));
        return new Attempt(index, attemptSpanId);
    }

    @Override
    public void gateWaited(Duration waited, boolean first) {
        record(r -> r.call.gateWaited(waited, first));
    }

    @Override
    public void gateClosed(Duration window) {
        record(r -> r.call.gateClosed(window));
    }

    @Override
    public void tokenScheme(String scheme) {
        record(r -> r.call.tokenScheme(scheme));
    }

    @Override
    public void end(int status, Verdict verdict, Throwable failure) {
        record(new CallEnd(status, verdict, failure));
        ended.run();
    }

    /** The replayed attempt {@code index}; none when the replay failed before it. */
    private static AttemptObserver attempt(Replayed r, int index) {
        return index < r.attempts.size() ? r.attempts.get(index) : AttemptObserver.NOOP;
    }

    /** One attempt of the pending call: its steps are the call's, in one order. */
    private final class Attempt implements AttemptObserver {
        private final int index;
        private final SpanContext span;

        Attempt(int index, String spanId) {
            this.index = index;
            this.span = SpanContext.create(
                    traceId,
                    spanId,
                    sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(),
                    TraceState.getDefault());
        }

        @Override
        public Scope onTheWire() {
            Replayed r = replayed();
            if (r != null) {
                return attempt(r, index).onTheWire();
            }
            return tracing ? AppTraceContext.onTheWire(span) : Scope.NONE;
        }

        @Override
        public void inject(BiConsumer<String, String> setHeader) {
            Replayed r = replayed();
            if (r != null) {
                attempt(r, index).inject(setHeader);
            } else if (tracing) {
                // What the W3C propagator writes for a span with no trace state, written here: the propagator would
                // take a Context, whose storage's first use sets up java.util.logging on the app's first call.
                setHeader.accept(
                        TRACEPARENT,
                        "00-" + span.getTraceId() + "-" + span.getSpanId() + "-"
                                + span.getTraceFlags().asHex());
            }
        }

        @Override
        public void response(
                int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict) {
            record(new AttemptResponse(index, status, protocolVersion, headers, verdict));
        }

        @Override
        public void decided(Decision decision, String retryAfter) {
            record(new AttemptDecided(index, decision, retryAfter));
        }

        @Override
        public void failed(Throwable failure) {
            record(r -> attempt(r, index).failed(failure));
        }
    }

    /** Makes the outer pending call current again. */
    private static final class RestoreCurrent implements Scope {
        private final PendingCall outer;

        RestoreCurrent(PendingCall outer) {
            this.outer = outer;
        }

        @Override
        public void close() {
            CURRENT.set(outer);
        }
    }

    private static final class AttemptBegun implements Consumer<Replayed> {
        private final boolean expectContinue;

        AttemptBegun(boolean expectContinue) {
            this.expectContinue = expectContinue;
        }

        @Override
        public void accept(Replayed r) {
            r.attempts.add(r.call.attempt(expectContinue));
        }
    }

    private static final class CallEnd implements Consumer<Replayed> {
        private final int status;
        private final Verdict verdict;
        private final Throwable failure;

        CallEnd(int status, Verdict verdict, Throwable failure) {
            this.status = status;
            this.verdict = verdict;
            this.failure = failure;
        }

        @Override
        public void accept(Replayed r) {
            r.call.end(status, verdict, failure);
        }
    }

    private static final class AttemptResponse implements Consumer<Replayed> {
        private final int index;
        private final int status;
        private final String protocolVersion;
        private final Function<String, List<String>> headers;
        private final Verdict verdict;

        AttemptResponse(
                int index,
                int status,
                String protocolVersion,
                Function<String, List<String>> headers,
                Verdict verdict) {
            this.index = index;
            this.status = status;
            this.protocolVersion = protocolVersion;
            this.headers = headers;
            this.verdict = verdict;
        }

        @Override
        public void accept(Replayed r) {
            attempt(r, index).response(status, protocolVersion, headers, verdict);
        }
    }

    private static final class AttemptDecided implements Consumer<Replayed> {
        private final int index;
        private final Decision decision;
        private final String retryAfter;

        AttemptDecided(int index, Decision decision, String retryAfter) {
            this.index = index;
            this.decision = decision;
            this.retryAfter = retryAfter;
        }

        @Override
        public void accept(Replayed r) {
            attempt(r, index).decided(decision, retryAfter);
        }
    }
}
