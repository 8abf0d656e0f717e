package io.apiwarden.core.engine;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.BodyReplay;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.throttle.RateLimitHeaders;
import io.apiwarden.core.throttle.ThrottleGate;
import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.SenderConstraint;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One logical managed call, whatever the client: takes a token, prepares each attempt (token,
 * trace context, request ID, what is left of the app's time limit), sends it through an
 * {@link Exchange}, classifies, decides ({@link io.apiwarden.core.call.ResendPolicy}), then
 * refreshes, waits or returns, reporting every step to telemetry.
 *
 * <p>Two faces of the same steps: {@link #run} on the caller's thread, which waits there
 * ({@link BlockingRun}), and {@link #runAsync}, which chains the attempts on futures and schedules
 * its waits on the exchange's timer, holding no thread in between ({@link AsyncRun}). This class
 * holds the call's state and the steps both share (the gate, each attempt's headers, the
 * decision, the end of telemetry); a face's runner holds only what that face needs. A call's
 * attempts run one after the other, never at once; the futures that chain them publish the
 * fields from one to the next.
 *
 * @param <R> the response type the app gets from its client
 */
public final class CallDriver<R> implements Judge {
    static final String AUTHORIZATION = "Authorization";
    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    final Warden warden;
    final CallState state;
    final CallObserver observer;
    private final CallTarget target;
    /** The DPoP proof's target, made on the first attempt when DPoP is on. */
    private String htu;
    /** Sent in the configured request-ID header on every attempt of this call, so all of them match in the server's logs. */
    private final String requestId;

    private AttemptHeaders headers;
    AccessToken token;
    /** The JVM's gate of the API's global rate limit, or null when it is switched off. */
    final ThrottleGate gate;
    /**
     * The gate's pass of the attempt about to be sent or in flight; null when none was needed. Volatile:
     * an asynchronous call may end (cancelled) on another thread than the one that took it.
     */
    private volatile ThrottleGate.Pass pass;
    /** Whether the next attempt has been through the gate already. */
    boolean gatePassed;
    /** Whether the next attempt resends a rate-limited one: it goes before calls never sent. */
    boolean nextIsRateLimitRetry;
    // Of the request being managed, set as each attempt is prepared.
    private Exchange<R> sending;
    private boolean agentOwnsAuthorization;
    /** The call's request body as an attempt sent it, when the client cannot send it twice; null until an adapter asks. */
    private volatile RecordedBody recording;

    /** The Warden of the API this call belongs to: where its token may go. */
    public Warden warden() {
        return warden;
    }

    /**
     * Starts observing a call to the API.
     *
     * @param appTimeout the app's own time limit for the whole call, or null
     */
    public CallDriver(Warden warden, CallTarget target, Duration appTimeout) {
        this.warden = warden;
        this.state = new CallState(Deadline.after(appTimeout, warden.clock()), target.method, target.rawPath);
        this.observer = warden.telemetry().call(target.method, target.url, target.host, target.port);
        this.target = target;
        if (warden.senderConstraint() != null) {
            observer.tokenScheme(warden.senderConstraint().scheme());
        }
        this.requestId = warden.config().requestIdHeader().isPresent()
                ? UUID.randomUUID().toString()
                : null;
        this.gate = warden.throttleGate();
        warden.resendPolicy().called();
    }

    /** The app's own time limit for the call. */
    public Deadline deadline() {
        return state.deadline();
    }

    /** The call's state: what it has used up so far. */
    public CallState state() {
        return state;
    }

    /**
     * The recording of this call's request body, for an adapter whose client cannot send the body
     * twice: the adapter tees the first attempt's body into it ({@link RecordedBody#begin}), and
     * sends {@link RecordedBody#buffers} on a resend, which the driver only decides on once the
     * recording is whole. One per call (all its attempts share it),
     * dropped when the call ends.
     *
     * @param declaredLength the length the client declares for the body, or -1 when it does not know
     * @return null when nothing is to be recorded: recording is off ({@code apiwarden.resend.max-recorded-body=0})
     *         or the declared length is over the bound (the call is then not resent, and says why)
     */
    public RecordedBody recordBody(long declaredLength) {
        long limit = warden.config().maxRecordedBody();
        if (limit <= 0) {
            return null;
        }
        RecordedBody r = recording;
        if (r == null) {
            r = new RecordedBody(limit);
            recording = r;
        }
        return r.fits(declaredLength) ? r : null;
    }

    /**
     * What one attempt sends in place of the app's body that the client cannot send twice: the body teed
     * into this call's recording ({@link #recordBody}) as the first attempt writes it, or written again
     * from the recording once it is whole (a resend, or a redirect hop that keeps the body).
     *
     * @param declaredLength the length the client declares for the body, -1 when it does not know
     * @param replay the client's body that writes a whole recording
     * @param tee the client's body that writes the app's and records it on the way
     * @return null when nothing is recorded ({@link #recordBody}) or the client's body could not be made
     *         (said once in the log): the attempt then sends the app's body, and the call is not resent
     */
    public <B> B recordedBody(
            LongSupplier declaredLength, Function<RecordedBody, B> replay, Function<RecordedBody, B> tee) {
        try {
            RecordedBody recording = recordBody(declaredLength.getAsLong());
            if (recording == null) {
                return null;
            }
            return recording.isComplete() ? replay.apply(recording) : tee.apply(recording);
        } catch (RuntimeException e) {
            warden.log()
                    .once(
                            AgentLog.Level.WARN,
                            "body-recording",
                            "a request body could not be recorded for a resend",
                            e);
            return null;
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The two faces (BlockingRun and AsyncRun), over the steps they share below.

    /** Runs the call on this thread to the response the app gets, and ends its telemetry. */
    public R run(Exchange.Blocking<R> exchange) throws IOException, InterruptedException {
        return new BlockingRun<>(this, exchange).run();
    }

    /**
     * {@link #run} for a client whose blocking call throws only I/O failures: the waits end an interrupted
     * call with an {@link InterruptedIOException} themselves, and an {@link InterruptedException} from
     * anywhere else does the same, the thread's flag kept. A failure an exchange carried through the driver
     * ({@link CarriedFailure}) comes out as it went in, for the adapter to throw again.
     */
    public R runWithIoFailures(Exchange.Blocking<R> exchange) throws IOException {
        try {
            return run(exchange);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
        }
    }

    /**
     * Runs the call without holding a thread while it waits, and ends its telemetry when the
     * returned future completes. Cancelling that future stops a pending wait and the attempt in flight.
     * A request the client refuses outright throws from here, as the client itself would.
     */
    public CompletableFuture<R> runAsync(Exchange.Async<R> exchange) {
        return new AsyncRun<>(this, exchange).start();
    }

    // ---------------------------------------------------------------------------------------------
    // The steps both faces share.

    CompletableFuture<ThrottleGate.Pass> enterGate() {
        boolean retry = nextIsRateLimitRetry;
        nextIsRateLimitRetry = false;
        Duration mayWait = warden.resendPolicy().mayWait(state);
        return retry ? gate.enterRetry(mayWait) : gate.enter(mayWait);
    }

    /**
     * Gives up the call's place at the gate. A pass that came as it gave up goes back: had it been the
     * first after a window, the other calls would wait for an answer that never comes.
     */
    void leaveGate(CompletableFuture<ThrottleGate.Pass> entry) {
        if (!entry.cancel(false) && !entry.isCompletedExceptionally()) {
            ThrottleGate.Pass p = entry.getNow(null);
            if (p != null) {
                gate.abandoned(p);
            }
        }
    }

    /** The next attempt has been through the gate, with {@code p} (null: it goes without one). */
    void took(ThrottleGate.Pass p) {
        pass = p;
        gatePassed = true;
        if (p != null && !p.waited().isZero()) {
            state.waitedAtGate(p.waited());
            observer.gateWaited(p.waited(), p.first());
        }
    }

    /** Tells the gate what the attempt's answer says about the API's global rate limit. */
    void tellGate(Attempt<R> sent) {
        if (gate == null) {
            return;
        }
        if (sent.decision() != null && sent.decision().fromOutsideTheApi()) {
            // Another host's answer, after a redirect: neither a refusal by the API nor a sign its window ended.
            noAnswer();
            return;
        }
        ThrottleGate.Pass p = pass;
        pass = null;
        if (sent.verdict() == Verdict.GLOBAL_RATE_LIMIT) {
            Duration closedFor = gate.refused(p, warden.resendPolicy().gateWindow(sent.decision(), sent.retryAfter()));
            if (closedFor != null) {
                warden.fleetWindow().announce(closedFor);
                observer.gateClosed(closedFor);
            }
        } else {
            Duration exhausted = RateLimitHeaders.exhaustion(sent.headers(), warden.clock());
            Duration closedFor = gate.answered(p, exhausted);
            if (closedFor != null) {
                observer.gateClosed(closedFor);
            }
        }
    }

    /** The attempt ended with no answer, or will never be sent: if it went first after a window, another must. */
    void noAnswer() {
        ThrottleGate.Pass p = pass;
        pass = null;
        if (gate != null && p != null) {
            gate.abandoned(p);
        }
    }

    /**
     * The headers of the next attempt: the agent's token (when it owns the header), the trace
     * context and, when configured, the request ID.
     */
    AttemptHeaders prepare(Exchange<R> exchange, AttemptObserver attempt) {
        sending = exchange;
        agentOwnsAuthorization = warden.replacesAppAuthorization() || !exchange.hasHeader(AUTHORIZATION);
        AttemptHeaders h = headers;
        if (h == null) {
            h = new AttemptHeaders();
            headers = h;
        } else {
            h.clear();
        }
        if (agentOwnsAuthorization && token != null) {
            SenderConstraint bound = warden.senderConstraint();
            if (bound == null) {
                h.accept(AUTHORIZATION, token.authorizationHeader());
            } else {
                // A new proof for every attempt, resends included: a server refuses a proof it has seen.
                if (htu == null) {
                    htu = target.htu();
                }
                bound.authorize(target.method, htu, token, h);
            }
            state.sendingToken(token.generation());
        }
        attempt.inject(h);
        if (requestId != null) {
            String name = warden.config().requestIdHeader().get();
            if (!exchange.hasHeader(name)) {
                h.accept(name, requestId);
            }
        }
        return h;
    }

    /** What is left of the app's limit, as the attempt's own time-out; null when the app set none. */
    Duration attemptTimeout() {
        if (!state.deadline().isSet()) {
            return null;
        }
        Duration left = state.deadline().remaining();
        // Clients refuse a time-out of zero: the last moment of a limit is a millisecond.
        return left.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : left;
    }

    @Override
    public Verdict classify(int status, Function<String, List<String>> headers, BodyPrefix body) {
        ResponseClassifier classifier = warden.classifier();
        Verdict verdict = classifier.fromHead(status, headers);
        if (verdict != null) {
            return verdict;
        }
        try {
            byte[] head = body.read(ResponseClassifier.BODY_PEEK_LIMIT + 1);
            return head.length > ResponseClassifier.BODY_PEEK_LIMIT
                    ? classifier.fromStatus(status)
                    : classifier.fromBody(status, head, head.length);
        } catch (BodyPeek.TooSlow e) {
            // Not whole within the bound: judged as a body too long to hold; the app gets it as it comes.
            return classifier.fromStatus(status);
        } catch (IOException e) {
            // The app meets the same failure when it reads the body.
            return classifier.fromStatus(status);
        }
    }

    @Override
    public Decision decide(Verdict verdict, String retryAfter, OnTheWire wire) {
        return warden.resendPolicy()
                .decide(
                        state,
                        verdict,
                        retryAfter,
                        bodyReplay(),
                        agentOwnsAuthorization,
                        warden.tokens().canRefresh(),
                        wire);
    }

    /**
     * Whether the body of the request just answered can go out again. Asked now, not when the
     * attempt was prepared: a recorded body is only whole once the attempt has sent it.
     */
    private BodyReplay bodyReplay() {
        if (sending.bodyRepeatable()) {
            return BodyReplay.REPEATABLE;
        }
        RecordedBody r = recording;
        return r == null ? BodyReplay.NOT_REPEATABLE : r.replay();
    }

    /** Tells the attempt's observer what came back and what the agent does about it. */
    static void observe(AttemptObserver attempt, Attempt<?> sent) {
        attempt.response(sent.status(), sent.protocolVersion(), sent.headers(), sent.verdict());
        attempt.decided(sent.decision(), sent.retryAfter());
    }

    void end(Exchange<R> exchange, R response, Throwable failure) {
        try {
            if (response == null) {
                end(0, null, failure);
            } else {
                end(exchange.status(response), exchange.headers(response), null);
            }
        } catch (RuntimeException e) {
            warden.log().once(AgentLog.Level.WARN, "call-telemetry", "a call's span could not be ended", e);
        }
    }

    /**
     * Ends the call's telemetry with what the app got: a response of {@code status} and
     * {@code headers}, or {@code failure} (then status is 0 and headers null). Telemetry never
     * fails a call. {@link #run} and {@link #runAsync} end it themselves.
     */
    void end(int status, Function<String, List<String>> headers, Throwable failure) {
        // A pass still held was never used (the call was cancelled or failed before its attempt went, or it
        // timed out as it got through): had it gone first after a window, the others would wait for it.
        noAnswer();
        RecordedBody r = recording;
        if (r != null) {
            r.drop();
        }
        try {
            observer.end(status, headers == null ? null : verdictOf(status, headers), failure);
        } catch (RuntimeException e) {
            warden.log().once(AgentLog.Level.WARN, "call-telemetry", "a call's span could not be ended", e);
        }
    }

    /** The verdict on what the app finally got, for the call's span and meters. */
    private Verdict verdictOf(int status, Function<String, List<String>> headers) {
        Verdict v = warden.classifier().fromHead(status, headers);
        return v != null ? v : warden.classifier().fromStatus(status);
    }
}
