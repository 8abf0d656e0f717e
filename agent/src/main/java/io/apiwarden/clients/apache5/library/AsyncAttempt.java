package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncDataConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;

/**
 * One attempt's response, from its head on: the engine's {@link Attempt}, and the consumer of its
 * body that the client's transport feeds.
 *
 * <p>Until the engine decides, the body is held: at most a bounded prefix
 * ({@link ResponseClassifier#BODY_PEEK_LIMIT}), the transport asked for no more (its capacity
 * window). An error that status and headers leave open is classified from that prefix. Once the
 * engine decides, the response goes to the app (the held bytes first, then the rest as it comes,
 * so the app's consumer sees the body whole and exactly as sent) or is drained, and its connection
 * goes back to the pool. A response the agent resends after a refresh is held meanwhile, in case
 * the refresh fails and the app must get it after all; one longer than the bound is not
 * ({@link #canHandBack}). A prefix to classify that is not whole within the bound on holding an error
 * body ({@link BodyPeek}) is judged as one too long, by the status.
 *
 * <p>The transport calls the consumer on its I/O thread; the engine may decide on another. All
 * state is guarded by this object, and the app's consumer is called under it, so that it sees
 * the body's pieces in order whichever thread hands them on.
 */
final class AsyncAttempt extends JudgedAttempt<HttpResponse>
        implements Attempt.Async<HttpResponse>, AsyncDataConsumer, Judge.BodyPrefix {
    private static final int LIMIT = ResponseClassifier.BODY_PEEK_LIMIT;

    private enum Mode {
        PENDING,
        DELIVERING,
        DISCARDING
    }

    private final AsyncExchange exchange;
    private final AttemptCall call;
    private final HttpResponse response;
    private final EntityDetails details;
    private final Judge judge;

    // Guarded by this.
    private Mode mode = Mode.PENDING;
    /** Whether the verdict waits for a prefix of the body. */
    private boolean classifying;
    /** Since the head arrived, while the verdict waits for a prefix. */
    private BodyPeek.Watch watch;
    /** The prefix was not whole within the bound: the verdict is the status's. */
    private boolean late;

    private final List<ByteBuffer> held = new ArrayList<>();
    private long heldBytes;
    /** A held body outgrew the bound: it is drained, and the response can no longer go to the app. */
    private boolean cut;

    private CapacityChannel capacity;
    /** The app's consumer of the body, once the response went to the app (null: the app reads no body). */
    private AsyncDataConsumer appBody;

    private boolean bodyEnded;
    private List<? extends Header> trailers;
    private boolean exchangeOver;
    private Exception exchangeFailure;
    /** The exchange's end was passed on: to the app, or by freeing the connection. */
    private boolean endPassedOn;
    /** It was passed on by freeing the connection while the engine had not decided: the app, if it gets the response, learns the end later. */
    private boolean freedUndecided;

    AsyncAttempt(
            AsyncExchange exchange,
            AttemptCall call,
            HttpResponse response,
            EntityDetails details,
            ResponseClassifier classifier,
            Judge judge) {
        this.exchange = exchange;
        this.call = call;
        this.response = response;
        this.details = details;
        this.judge = judge;
        Verdict fromHead;
        try {
            fromHead = classifier.fromHead(response.getCode(), headers());
        } catch (RuntimeException e) {
            unjudgeable(e);
            return;
        }
        if (fromHead == null && details != null) {
            classifying = true;
            watch = BodyPeek.Watch.start(exchange.maxErrorBodyWait());
        } else {
            judge();
        }
    }

    /** Whether the verdict is in (else it waits for a prefix of the body). */
    synchronized boolean isJudged() {
        return !classifying;
    }

    private void judge() {
        try {
            judge(judge, this, OnTheWire.AS_PREPARED);
        } catch (RuntimeException e) {
            unjudgeable(e);
        }
    }

    /** A failure of the agent's own: the response goes to the app as without the agent. */
    private void unjudgeable(RuntimeException e) {
        AgentLog.once(
                AgentLog.Level.WARN,
                "apache-async-classify",
                "an Apache HttpClient response could not be classified; it goes to the app as is",
                e);
        int status = response.getCode();
        judged(
                status < 400 ? Verdict.SUCCESS : status < 500 ? Verdict.CLIENT_ERROR : Verdict.SERVER_ERROR,
                Decision.returnToApp());
    }

    /** What the transport is to feed the body into: the app's own consumer when it has it already, else this. */
    synchronized AsyncDataConsumer bodyConsumer() {
        if (details == null) {
            return null;
        }
        return mode == Mode.DELIVERING && held.isEmpty() ? appBody : this;
    }

    // ---------------------------------------------------------------------------------------------
    // The body, as the transport hands it over.

    @Override
    public void updateCapacity(CapacityChannel channel) throws IOException {
        synchronized (this) {
            capacity = channel;
            switch (mode) {
                case DELIVERING:
                    if (appBody != null) {
                        appBody.updateCapacity(channel);
                    } else {
                        channel.update(Integer.MAX_VALUE);
                    }
                    return;
                case DISCARDING:
                    channel.update(Integer.MAX_VALUE);
                    return;
                default:
                    if (cut) {
                        channel.update(Integer.MAX_VALUE);
                    } else if (heldBytes <= LIMIT) {
                        // Enough to tell a prefix longer than the bound, no more.
                        channel.update((int) (LIMIT + 1 - heldBytes));
                    }
            }
        }
    }

    @Override
    public void consume(ByteBuffer src) throws IOException {
        synchronized (this) {
            if (mode == Mode.DELIVERING && appBody != null) {
                appBody.consume(src);
                return;
            }
            if (mode != Mode.PENDING || cut) {
                src.position(src.limit());
                return;
            }
            ByteBuffer copy = ByteBuffer.allocate(src.remaining());
            copy.put(src).flip();
            held.add(copy);
            heldBytes += copy.remaining();
            if (heldBytes <= LIMIT) {
                if (!classifying || !watch.over()) {
                    return;
                }
                late = true;
            } else if (!classifying) {
                Decision decided = decision();
                if (decided != null && decided.action() == Decision.Action.REFRESH_AND_RESEND) {
                    // Resent after the refresh whatever it says, and too long to hold for a refresh that fails.
                    cut = true;
                    held.clear();
                    heldBytes = 0;
                    grantAll();
                }
                return;
            }
            classifying = false;
        }
        // Longer (or slower) than the bound: the body's rules cannot apply, the status decides.
        judge();
        call.judged(this);
    }

    @Override
    public void streamEnd(List<? extends Header> endTrailers) throws HttpException, IOException {
        synchronized (this) {
            if (mode == Mode.DELIVERING && appBody != null) {
                appBody.streamEnd(endTrailers);
                return;
            }
            bodyEnded = true;
            trailers = endTrailers;
            if (!classifying) {
                return;
            }
            classifying = false;
        }
        judge();
        call.judged(this);
    }

    @Override
    public void releaseResources() {
        AsyncDataConsumer app;
        synchronized (this) {
            held.clear();
            app = mode == Mode.DELIVERING ? appBody : null;
        }
        if (app != null) {
            app.releaseResources();
        }
    }

    /** The attempt's exchange is over: body and request both, or a failure. */
    void exchangeOver(Exception failure) {
        boolean judgeNow;
        synchronized (this) {
            exchangeOver = true;
            exchangeFailure = failure;
            judgeNow = classifying;
            classifying = false;
        }
        if (judgeNow) {
            if (failure != null) {
                // Broken before its prefix was in: the attempt failed.
                synchronized (this) {
                    endPassedOn = true;
                }
                exchange.attemptOver(failure);
                call.over.complete(null);
                call.completeExceptionally(failure);
                return;
            }
            // The body ended before its prefix outgrew the bound: judged on all of it.
            judge();
            call.judged(this);
        }
        passOnEnd();
    }

    /**
     * Passes the exchange's end on, once it is over, and once: to the app when it has the response;
     * otherwise by freeing the connection, also while the engine has not decided (all the body
     * there is, is held), so that no connection waits for a refresh. The next attempt may go then.
     */
    private void passOnEnd() {
        Mode now;
        Exception failure;
        synchronized (this) {
            if (!exchangeOver || endPassedOn) {
                return;
            }
            endPassedOn = true;
            now = mode;
            failure = exchangeFailure;
            freedUndecided = now == Mode.PENDING;
        }
        if (now == Mode.DELIVERING) {
            exchange.responded(failure);
        } else {
            exchange.attemptOver(failure);
        }
        call.over.complete(null);
    }

    // ---------------------------------------------------------------------------------------------
    // The engine's side.

    @Override
    public byte[] read(int limit) throws IOException {
        byte[] raw;
        synchronized (this) {
            if (late) {
                throw new BodyPeek.TooSlow(exchange.maxErrorBodyWait());
            }
            raw = new byte[(int) Math.min(heldBytes, limit)];
            int at = 0;
            for (ByteBuffer b : held) {
                if (at == raw.length) {
                    break;
                }
                ByteBuffer view = b.duplicate();
                int n = Math.min(view.remaining(), raw.length - at);
                view.get(raw, at, n);
                at += n;
            }
        }
        return ContentCoding.decodedPrefix(raw, details == null ? null : details.getContentEncoding(), limit);
    }

    @Override
    public int status() {
        return response.getCode();
    }

    @Override
    public String protocolVersion() {
        return Messages.protocolVersion(response.getVersion());
    }

    @Override
    public Function<String, List<String>> headers() {
        return name -> Messages.values(response, name);
    }

    @Override
    public String retryAfter() {
        return Messages.first(response, "Retry-After");
    }

    @Override
    public synchronized boolean canHandBack() {
        return !cut;
    }

    /**
     * Hands the response to the app's callback, then what is held of its body, then (as it comes)
     * the rest. A failure of the app's own consumer ends the call with that failure, as it would
     * without the agent.
     */
    @Override
    public CompletionStage<HttpResponse> deliverAsync() {
        Exception refused = null;
        boolean endKnown;
        Exception failure;
        synchronized (this) {
            if (mode != Mode.PENDING) {
                return CompletableFuture.completedFuture(response);
            }
            if (!exchange.claimResponse()) {
                // The call ended first (the app cancelled it).
                discard();
                return CompletableFuture.completedFuture(response);
            }
            mode = Mode.DELIVERING;
            try {
                appBody = exchange.respond(response, details);
                if (appBody != null) {
                    if (capacity != null) {
                        appBody.updateCapacity(capacity);
                    }
                    for (ByteBuffer b : held) {
                        appBody.consume(b);
                    }
                    if (bodyEnded) {
                        appBody.streamEnd(trailers);
                    }
                } else if (capacity != null) {
                    capacity.update(Integer.MAX_VALUE);
                }
            } catch (HttpException | IOException | RuntimeException e) {
                // The app's consumer refused the response: the exchange fails, as it would have.
                refused = e;
                mode = Mode.DISCARDING;
                appBody = null;
                grantAll();
            } finally {
                held.clear();
                heldBytes = 0;
            }
            endKnown = freedUndecided;
            failure = exchangeFailure;
        }
        if (refused != null) {
            exchange.responded(refused);
            passOnEnd();
            return CompletableFuture.failedFuture(refused);
        }
        if (endKnown) {
            // The exchange was over before the engine decided: the app learns its end now.
            exchange.responded(failure);
        } else {
            passOnEnd();
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Drains the response: its connection goes back to the pool once the body is read, and the next attempt may go. */
    @Override
    public void discard() {
        synchronized (this) {
            if (mode != Mode.PENDING) {
                return;
            }
            mode = Mode.DISCARDING;
            held.clear();
            heldBytes = 0;
            grantAll();
        }
        passOnEnd();
    }

    /** Lets the rest of the body come, to be dropped. */
    private void grantAll() {
        if (capacity != null) {
            try {
                capacity.update(Integer.MAX_VALUE);
            } catch (IOException | RuntimeException e) {
                // The exchange failed: its end comes through the callback.
            }
        }
    }
}
