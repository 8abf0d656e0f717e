package io.apiwarden.clients.jetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.scope.ApiScope;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpRequest;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;

/**
 * One attempt of a {@link JettyExchange}: the listener of the attempt's request, and what the engine
 * makes of its response. Status and headers classify it as they arrive, except an error they leave
 * open: then its body is held up to 64 KiB + 1 byte, its end, or the bound on waiting for it
 * ({@link BodyPeek}), and classified from that prefix.
 *
 * <p>The engine's future of the attempt completes once the response is judged when it goes to the app,
 * so that its body streams to the app's listeners as it comes; otherwise once the exchange is over (the
 * body drained, at most 64 KiB of it held in case a failed refresh hands it back), so that its
 * connection is free before a wait. Events the app is to get are passed on in order through one queue,
 * whichever thread brings them: those that came before the engine handed the response over first.
 */
final class JettyAttempt extends JudgedAttempt<Response> implements Attempt.Async<Response>, Response.Listener {
    private static final int LIMIT = ResponseClassifier.BODY_PEEK_LIMIT;

    private enum Mode {
        PENDING,
        DELIVERING,
        DISCARDING
    }

    private final JettyExchange exchange;
    final HttpRequest request;
    /** The agent's headers on this attempt, for each redirect hop Jetty sends within the API's scope. */
    private final List<String[]> agentHeaders;

    private final Judge judge;
    private final ResponseClassifier classifier;
    private final ApiScope scope;
    private final Duration bodyWait;

    /** The engine's future of this attempt; cancelling it aborts the attempt's request. */
    final CompletableFuture<Attempt.Async<Response>> future = new CompletableFuture<>() {
        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            request.abort(new CancellationException("the managed call was cancelled"));
            return super.cancel(mayInterruptIfRunning);
        }
    };

    // Guarded by this.
    private Mode mode = Mode.PENDING;
    private Response response;
    private boolean classifying;
    private BodyPeek.Watch watch;
    private boolean late;
    private final ArrayDeque<ByteBuffer> held = new ArrayDeque<>();
    private long heldBytes;
    /** More than the bound came of a body held only in case it goes back to the app: it cannot. */
    private boolean cut;

    private boolean bodyEnded;
    /** The body's source, while this attempt reads it or keeps it unread for the app. */
    private Content.Source source;
    /** Whether the source is kept unread, for the app. */
    private boolean keptForApp;

    private boolean succeeded;
    private Throwable failure;
    private Result result;
    /** Events for the app's listeners, passed on in order by one thread at a time. */
    private final ArrayDeque<Runnable> toApp = new ArrayDeque<>();

    private boolean passing;

    JettyAttempt(JettyExchange exchange, HttpRequest request, List<String[]> agentHeaders, Judge judge, Warden warden) {
        this.exchange = exchange;
        this.request = request;
        this.agentHeaders = agentHeaders;
        this.judge = judge;
        this.classifier = warden.classifier();
        this.scope = warden.scope();
        this.bodyWait = warden.config().maxErrorBodyWait();
    }

    /**
     * A request of this attempt's conversation is being sent: the attempt itself, or a redirect hop
     * Jetty follows. Jetty's copy for a hop never has {@code Authorization}; a hop within the API's
     * scope gets the agent's headers again, any other hop goes without them.
     */
    void sending(HttpRequest hop) {
        if (hop == request) {
            return;
        }
        URI uri = hop.getURI();
        if (uri != null && scope.contains(uri)) {
            hop.headers(h -> {
                for (String[] header : agentHeaders) {
                    h.put(header[0], header[1]);
                }
            });
        }
    }

    // ---------------------------------------------------------------------------------------------
    // The response, as Jetty hands it over.

    @Override
    public void onBegin(Response r) {
        synchronized (this) {
            response = r;
        }
        // The answer may come before Jetty has sent (so recorded) the whole body: the decision is on the
        // body the app gave, recorded ahead of the sender as far as the app has it (see RecordingContent).
        if (request.getBody() instanceof RecordingContent) {
            ((RecordingContent) request.getBody()).recordAhead();
        }
    }

    @Override
    public boolean onHeader(Response r, HttpField field) {
        return true;
    }

    @Override
    public void onHeaders(Response r) {
        Verdict fromHead;
        synchronized (this) {
            response = r;
        }
        try {
            fromHead = classifier.fromHead(r.getStatus(), headers());
        } catch (RuntimeException e) {
            unjudgeable(e);
            future.complete(this);
            return;
        }
        if (fromHead == null) {
            synchronized (this) {
                classifying = true;
                watch = BodyPeek.Watch.start(bodyWait);
            }
            return;
        }
        judgeNow();
        if (returnsToApp()) {
            future.complete(this);
        }
    }

    @Override
    public void onContentSource(Response r, Content.Source content) {
        synchronized (this) {
            source = content;
            if (mode == Mode.DELIVERING) {
                toApp.add(() -> exchange.appListeners.notifyContentSource(r, content));
            } else if (mode == Mode.PENDING && !classifying && returnsToApp()) {
                keptForApp = true;
                return;
            }
        }
        passOn();
        if (mode() != Mode.DELIVERING) {
            read();
        }
    }

    /** Reads the body this attempt holds or drains, as it comes, never blocking. */
    private void read() {
        Content.Source s;
        synchronized (this) {
            s = source;
        }
        while (true) {
            Content.Chunk chunk = s.read();
            if (chunk == null) {
                s.demand(this::read);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                // The exchange fails: onFailure and onComplete follow.
                return;
            }
            boolean last = chunk.isLast();
            boolean judgeNow;
            try {
                synchronized (this) {
                    hold(chunk.getByteBuffer());
                    bodyEnded = last;
                    if (classifying && !last && heldBytes <= LIMIT && watch.over()) {
                        late = true;
                    }
                    judgeNow = classifying && (last || heldBytes > LIMIT || late);
                    if (judgeNow) {
                        classifying = false;
                    }
                }
            } finally {
                chunk.release();
            }
            if (judgeNow) {
                judgeNow();
                if (returnsToApp()) {
                    synchronized (this) {
                        keptForApp = !last;
                    }
                    // The rest of the body, unread, goes to the app after what was held.
                    future.complete(this);
                    return;
                }
            }
            if (last) {
                return;
            }
        }
    }

    /** Keeps a copy of a piece of the body: whole while classifying (it may go to the app), else up to the bound. */
    private void hold(ByteBuffer piece) {
        if (mode == Mode.DISCARDING || !piece.hasRemaining()) {
            return;
        }
        if (!classifying && (cut || heldBytes + piece.remaining() > LIMIT)) {
            cut = true;
            held.clear();
            return;
        }
        ByteBuffer copy = ByteBuffer.allocate(piece.remaining());
        copy.put(piece.duplicate()).flip();
        held.add(copy);
        heldBytes += copy.remaining();
    }

    @Override
    public void onSuccess(Response r) {
        synchronized (this) {
            if (mode != Mode.DELIVERING) {
                succeeded = true;
                return;
            }
            toApp.add(() -> exchange.appListeners.notifySuccess(r));
        }
        passOn();
    }

    @Override
    public void onFailure(Response r, Throwable x) {
        synchronized (this) {
            if (mode != Mode.DELIVERING) {
                failure = x;
                return;
            }
            toApp.add(() -> exchange.appListeners.notifyFailure(r, x));
        }
        passOn();
    }

    @Override
    public void onComplete(Result r) {
        boolean judgeLate;
        synchronized (this) {
            result = r;
            if (mode == Mode.DELIVERING) {
                toApp.add(() -> exchange.appListeners.notifyComplete(exchange.resultForApp(r)));
            }
            judgeLate = classifying;
            classifying = false;
            bodyEnded = true;
        }
        passOn();
        if (decision() == null && !judgeLate) {
            // No response at all: the attempt failed (connect, time-out, abort).
            future.completeExceptionally(
                    r.getFailure() != null ? r.getFailure() : new IOException("the exchange ended without a response"));
            return;
        }
        if (judgeLate) {
            // The body ended (or failed) before the prefix was whole: judged on what came.
            judgeNow();
        }
        future.complete(this);
    }

    // ---------------------------------------------------------------------------------------------
    // The verdict.

    private void judgeNow() {
        try {
            judge(judge, this::prefix, wire());
        } catch (RuntimeException e) {
            unjudgeable(e);
        }
    }

    /** A redirect Jetty followed out of the API: its answer is not the API's. */
    private OnTheWire wire() {
        Response r = responseNow();
        URI last = r == null || r.getRequest() == null ? null : r.getRequest().getURI();
        return last == null || scope.contains(last) ? OnTheWire.AS_PREPARED : OnTheWire.LEFT_THE_API;
    }

    private synchronized byte[] prefix(int limit) throws IOException {
        if (late) {
            throw new BodyPeek.TooSlow(bodyWait);
        }
        int n = (int) Math.min(limit, heldBytes);
        byte[] bytes = new byte[n];
        int at = 0;
        for (ByteBuffer b : held) {
            int take = Math.min(b.remaining(), n - at);
            b.duplicate().get(bytes, at, take);
            at += take;
            if (at == n) {
                break;
            }
        }
        return bytes;
    }

    /** A failure of the agent's own: the response goes to the app as without the agent. */
    private void unjudgeable(RuntimeException e) {
        AgentLog.once(
                AgentLog.Level.WARN,
                "jetty-classify",
                "a Jetty client response could not be classified; it goes to the app as is",
                e);
        int status = status();
        judged(
                status < 400 ? Verdict.SUCCESS : status < 500 ? Verdict.CLIENT_ERROR : Verdict.SERVER_ERROR,
                Decision.returnToApp());
    }

    private boolean returnsToApp() {
        Decision d = decision();
        return d != null && d.action() == Decision.Action.RETURN;
    }

    private synchronized Mode mode() {
        return mode;
    }

    private synchronized Response responseNow() {
        return response;
    }

    // ---------------------------------------------------------------------------------------------
    // What the engine does with it.

    @Override
    public CompletionStage<Response> deliverAsync() {
        Response r = responseNow();
        if (!exchange.claimResponse()) {
            discard();
            return CompletableFuture.failedFuture(new CancellationException("the call ended first"));
        }
        synchronized (this) {
            mode = Mode.DELIVERING;
            toApp.add(() -> {
                exchange.appListeners.notifyBegin(r);
                for (HttpField field : r.getHeaders()) {
                    exchange.appListeners.notifyHeader(r, field);
                }
                exchange.appListeners.notifyHeaders(r);
            });
            Content.Source rest = keptForApp ? source : null;
            if (!held.isEmpty() || bodyEnded) {
                Content.Source body = new PrefixedSource(concat(held), rest);
                toApp.add(() -> exchange.appListeners.notifyContentSource(r, body));
            } else if (rest != null) {
                toApp.add(() -> exchange.appListeners.notifyContentSource(r, rest));
            }
            held.clear();
            if (succeeded) {
                toApp.add(() -> exchange.appListeners.notifySuccess(r));
            }
            Throwable f = failure;
            if (f != null) {
                toApp.add(() -> exchange.appListeners.notifyFailure(r, f));
            }
            Result done = result;
            if (done != null) {
                toApp.add(() -> exchange.appListeners.notifyComplete(exchange.resultForApp(done)));
            }
        }
        passOn();
        return CompletableFuture.completedFuture(r);
    }

    /** Passes the app's events on in order, one thread at a time; one that comes while another passes waits its turn in the queue. */
    private void passOn() {
        while (true) {
            Runnable next;
            synchronized (this) {
                if (passing || toApp.isEmpty()) {
                    return;
                }
                passing = true;
                next = toApp.poll();
            }
            try {
                next.run();
            } catch (RuntimeException e) {
                AgentLog.once(AgentLog.Level.WARN, "jetty-listener", "a Jetty response listener of the app failed", e);
            } finally {
                synchronized (this) {
                    passing = false;
                }
            }
        }
    }

    @Override
    public void discard() {
        boolean over;
        synchronized (this) {
            mode = Mode.DISCARDING;
            held.clear();
            over = result != null;
        }
        if (!over) {
            request.abort(new CancellationException("the agent discarded this attempt"));
        }
    }

    @Override
    public synchronized boolean canHandBack() {
        return !cut;
    }

    private static ByteBuffer concat(ArrayDeque<ByteBuffer> pieces) {
        int n = 0;
        for (ByteBuffer b : pieces) {
            n += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(n);
        for (ByteBuffer b : pieces) {
            all.put(b.duplicate());
        }
        return all.flip();
    }

    @Override
    public int status() {
        Response r = responseNow();
        return r == null ? 0 : r.getStatus();
    }

    @Override
    public String protocolVersion() {
        Response r = responseNow();
        HttpVersion v = r == null ? null : r.getVersion();
        if (v == HttpVersion.HTTP_1_0) {
            return "1.0";
        }
        if (v == HttpVersion.HTTP_2) {
            return "2";
        }
        if (v == HttpVersion.HTTP_3) {
            return "3";
        }
        return "1.1";
    }

    @Override
    public Function<String, List<String>> headers() {
        Response r = responseNow();
        return name -> r.getHeaders().getValuesList(name);
    }

    @Override
    public String retryAfter() {
        return responseNow().getHeaders().get("Retry-After");
    }
}
