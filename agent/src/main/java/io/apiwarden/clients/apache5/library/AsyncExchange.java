package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.hc.client5.http.async.AsyncExecCallback;
import org.apache.hc.client5.http.async.AsyncExecChain;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.AsyncDataConsumer;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;

/**
 * Apache HttpClient 5's asynchronous side of one managed request, driven by the {@link CallDriver}'s
 * asynchronous face inside the agent's {@link AsyncHandler}. Each attempt is a copy of the request
 * sent down the rest of the exec chain ({@code chain.proceed}) with a callback of the agent's
 * ({@link AttemptCall}); the response of the attempt the app gets is handed to the app's callback
 * (the chain above the handler) as it arrives, the others are drained. A resend goes down the chain
 * again once the previous attempt's exchange is over, as the client's own retry handler does.
 *
 * <p>No thread waits: a token, the rate-limit gate and a back-off are futures and timers of the
 * engine. Between attempts the call's cancellable step is this exchange, so the app's
 * {@code Future.cancel} ends a wait at once; during an attempt it is the client's own (its
 * connection lease, its exchange), as without the agent.
 */
final class AsyncExchange implements Exchange.Async<HttpResponse>, Cancellable {
    private static final int OPEN = 0;
    private static final int RESPONDED = 1;
    private static final int DONE = 2;

    private final Warden warden;
    private final Executor completions;
    private final HttpRequest request;
    private final AsyncEntityProducer body;
    private final AsyncExecChain.Scope scope;
    private final AsyncExecChain chain;
    /** The chain above the handler: the client's own retry, decompression and redirect handlers, then the app. */
    private final AsyncExecCallback app;

    private final CallDriver<HttpResponse> driver;
    /** What the app's callback has been told: nothing yet, a response (whose attempt tells it the rest), or its end. */
    private final AtomicInteger told = new AtomicInteger(OPEN);

    private volatile CompletableFuture<HttpResponse> call;
    private volatile boolean cancelled;
    /** Whether an attempt went down the chain: before that, a failure of the agent's lets the request go as it is. */
    private volatile boolean sentAny;
    /** The app's thread while it is in {@link #start}: what the chain throws there is thrown to the app, as without the agent. */
    private volatile Thread starting;
    /** Completes when the last attempt's exchange is over: the next one goes down the chain then. */
    private CompletableFuture<Void> previousOver = CompletableFuture.completedFuture(null);
    /** What the first attempt recorded of a body the client cannot send twice; null when nothing is recorded. */
    private RecordedBody recording;

    AsyncExchange(
            Warden warden,
            Executor completions,
            HttpRequest request,
            AsyncEntityProducer body,
            Target target,
            AsyncExecChain.Scope scope,
            AsyncExecChain chain,
            AsyncExecCallback app) {
        this.warden = warden;
        this.completions = completions;
        this.request = request;
        this.body = body;
        this.scope = scope;
        this.chain = chain;
        this.app = app;
        // The client has no time limit for a whole call (its time-outs bound each connect and read,
        // and apply to every attempt as the app set them): no deadline.
        this.driver = new CallDriver<>(warden, target.callTarget(request.getMethod()), null);
        // The client's own retry of a 429 the agent gave up on is this call again, not a new one.
        EarlierRun.carryOver(
                scope.clientContext,
                EarlierRun.key(scope.exchangeId, request.getMethod(), target.url()),
                driver.state());
    }

    /**
     * Runs the call. A failure of the agent's before anything was sent lets the request go down
     * the chain as it is, as without the agent.
     */
    void start() throws HttpException, IOException {
        // Until the first attempt is on its way, cancelling the app's future ends the wait for a token.
        scope.cancellableDependency.setDependency(this);
        CompletableFuture<HttpResponse> c;
        starting = Thread.currentThread();
        try {
            c = driver.runAsync(this);
        } catch (ChainThrew e) {
            // The client's (or an interceptor of the app's) own failure, as it would throw it.
            told.set(DONE);
            throw e.unchecked;
        } catch (RuntimeException | Error e) {
            if (sentAny) {
                // Something went down the chain already: the call fails, as an attempt that failed would.
                fail(e);
                return;
            }
            told.set(DONE);
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "apache-async-call",
                    "an Apache HttpClient async call could not be managed; it goes out as without the agent",
                    e);
            chain.proceed(request, body, scope, app);
            return;
        } finally {
            starting = null;
        }
        call = c;
        if (cancelled) {
            c.cancel(true);
        }
        c.whenComplete((response, failure) -> {
            if (failure != null) {
                fail(failure);
            }
        });
    }

    /** The app cancelled its future while the call waits between attempts (a token, the gate, a back-off). */
    @Override
    public boolean cancel() {
        cancelled = true;
        CompletableFuture<HttpResponse> c = call;
        if (c != null) {
            c.cancel(true);
        }
        return true;
    }

    @Override
    public boolean hasHeader(String name) {
        return request.containsHeader(name);
    }

    @Override
    public boolean bodyRepeatable() {
        return body == null || body.isRepeatable();
    }

    @Override
    public boolean expectContinue() {
        return body != null && request.containsHeader("Expect");
    }

    @Override
    public CompletableFuture<Attempt.Async<HttpResponse>> sendAsync(
            AttemptHeaders headers, Duration timeout, Judge judge) {
        HttpRequest copy = copyOf(request);
        headers.forEach(copy::setHeader);
        AsyncEntityProducer attemptBody = bodyForAttempt();
        AttemptCall attempt = new AttemptCall(this, warden.classifier(), judge);
        CompletableFuture<Void> ready = previousOver;
        previousOver = attempt.over;
        sentAny = true;
        if (ready.isDone()) {
            // The first attempt goes down the chain on the app's own thread, as without the agent.
            proceed(copy, attemptBody, attempt, starting == Thread.currentThread());
        } else {
            ready.whenComplete((v, e) -> proceed(copy, attemptBody, attempt, false));
        }
        return attempt;
    }

    private void proceed(HttpRequest copy, AsyncEntityProducer attemptBody, AttemptCall attempt, boolean mayThrow) {
        if (attempt.isDone() || scope.cancellableDependency.isCancelled()) {
            attempt.failed(new InterruptedIOException("Request aborted"));
            return;
        }
        try {
            chain.proceed(copy, attemptBody, scope, attempt);
        } catch (HttpException | IOException e) {
            attempt.failed(e);
        } catch (RuntimeException e) {
            attempt.failed(e);
            if (mayThrow) {
                throw new ChainThrew(e);
            }
        }
    }

    /**
     * The body an attempt sends: the app's own when the client can send it again (rewound as the
     * client's retry handler does), the recording of the first attempt when the body could not
     * be sent twice and was recorded whole, and on the first attempt a tee that records it.
     */
    private AsyncEntityProducer bodyForAttempt() {
        if (body == null) {
            return null;
        }
        if (!sentAny) {
            if (body.isRepeatable()) {
                return body;
            }
            RecordedBody r = driver.recordBody(body.getContentLength());
            recording = r;
            return r == null ? body : new RecordingProducer(body, r.begin());
        }
        if (body.isRepeatable()) {
            body.releaseResources();
            return body;
        }
        RecordedBody r = recording;
        // The driver resends a body it cannot send again only when it was recorded whole.
        return r != null && r.isComplete() ? new ReplayProducer(body, r.buffers()) : body;
    }

    private static HttpRequest copyOf(HttpRequest original) {
        BasicHttpRequest copy = new BasicHttpRequest(
                original.getMethod(), original.getScheme(), original.getAuthority(), original.getPath());
        copy.setVersion(original.getVersion());
        copy.setHeaders(original.getHeaders());
        return copy;
    }

    // ---------------------------------------------------------------------------------------------
    // What the attempts tell the chain above, once for the call.

    /** Whether the app's callback may still get a response: false once the call ended (cancelled) without one. */
    boolean claimResponse() {
        return told.compareAndSet(OPEN, RESPONDED);
    }

    /** Hands the app's callback the response of the attempt the app gets (after {@link #claimResponse}); returns the consumer of its body, or null. */
    AsyncDataConsumer respond(HttpResponse response, EntityDetails details) throws HttpException, IOException {
        return app.handleResponse(response, details);
    }

    void informationResponse(HttpResponse response) throws HttpException, IOException {
        if (told.get() == OPEN) {
            app.handleInformationResponse(response);
        }
    }

    /** The exchange of the response the app got is over. */
    void responded(Exception failure) {
        if (told.compareAndSet(RESPONDED, DONE)) {
            if (failure == null) {
                app.completed();
            } else {
                app.failed(failure);
            }
        }
    }

    /** The call failed, or was cancelled, before the app got a response. */
    private void fail(Throwable failure) {
        if (!told.compareAndSet(OPEN, DONE)) {
            return;
        }
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof CancellationException) {
            // What the client's own exchange raises when the app cancels it.
            cause = new InterruptedIOException("Request aborted");
        }
        app.failed(cause instanceof Exception ? (Exception) cause : new IOException(cause));
    }

    /**
     * An attempt whose response does not go to the app is over: its connection goes back to the
     * pool (or is closed, after a failure) while the call waits, and until the next attempt the
     * call's cancellable step is this exchange again.
     */
    void attemptOver(Exception failure) {
        try {
            if (failure == null) {
                scope.execRuntime.releaseEndpoint();
            } else {
                scope.execRuntime.discardEndpoint();
            }
        } catch (RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "apache-async-release",
                    "an Apache HttpClient connection could not be released",
                    e);
        }
        if (told.get() == OPEN) {
            scope.cancellableDependency.setDependency(this);
        }
    }

    // ---------------------------------------------------------------------------------------------
    // How the engine waits: never here, always on its timer.

    @Override
    public Exception timedOut() {
        // No deadline is ever set (see the constructor).
        return null;
    }

    @Override
    public DelayScheduler timer() {
        return warden.scheduler();
    }

    /** The bound on holding an error body to classify it ({@link io.apiwarden.core.engine.BodyPeek}). */
    Duration maxErrorBodyWait() {
        return warden.config().maxErrorBodyWait();
    }

    @Override
    public Executor completions() {
        return completions;
    }

    @Override
    public int status(HttpResponse response) {
        return response.getCode();
    }

    @Override
    public Function<String, List<String>> headers(HttpResponse response) {
        return name -> Messages.values(response, name);
    }

    /** A runtime failure of the chain on the app's thread, carried through the driver to be thrown as it was. */
    private static final class ChainThrew extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient RuntimeException unchecked;

        ChainThrew(RuntimeException e) {
            super(null, null, false, false);
            this.unchecked = e;
        }
    }
}
