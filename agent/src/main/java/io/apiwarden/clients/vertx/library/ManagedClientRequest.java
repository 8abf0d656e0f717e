package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.EntryGuard;
import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.http.StreamResetException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The request the app gets from its client for a call to the API: it takes the app's headers, settings and
 * body as the client's own request would, and when the app ends it ({@code end}, {@code send}) runs one managed
 * call, whose attempts are real requests of the app's client ({@link VertxExchange}). The app's response
 * future gets the response of the attempt that goes to the app, on the context the client's own would complete
 * on; {@code reset()} cancels the call (a pending wait, the attempt in flight).
 *
 * <p>Settings go on to the first attempt's request, the client's own, which is the template of the others; the
 * app's headers are kept apart, so the agent's never show in {@link #headers()}.
 *
 * <p>Version-neutral: compiled against Vert.x 4.5, it holds only what links the same on 4.5 and 5 (every method
 * here has one descriptor on both). What differs (4.5's callback overloads and {@code setHost}, 5's
 * {@code Future}-returning {@code reset} and {@code cancel}) is in {@link ManagedClientRequest4} and in
 * {@code ManagedClientRequest5}, compiled against Vert.x 5 from {@code src/main/vertx5}.
 */
abstract class ManagedClientRequest extends ClientRequestSettings {
    private final Warden warden;
    final HttpClient client;
    private final RequestOptions options;
    /** Where the client's request completes its futures: the app's continuations run there. */
    final Context context;

    private final DelayScheduler timer;
    private final Promise<HttpClientResponse> response = Promise.promise();
    private final Promise<Void> ended = Promise.promise();

    private volatile Throwable resetCause;
    // Set once, when the app starts its body or ends the request.
    private boolean started;
    /** The body as one buffer the app gave at the end (null for none); unused when {@link #streamed}. */
    volatile Buffer body;
    /** The body the app writes piece by piece, or null. */
    volatile StreamedBody streamed;

    private volatile CompletableFuture<HttpClientResponse> call;

    ManagedClientRequest(
            Warden warden,
            HttpClient client,
            RequestOptions options,
            HttpClientRequest first,
            Context context,
            DelayScheduler timer) {
        super(first, options);
        this.warden = warden;
        this.client = client;
        this.options = options;
        this.context = context;
        this.timer = timer;
    }

    // ---------------------------------------------------------------------------------------------
    // The call.

    /** Starts the call once: with the body the app gave whole ({@code whole}), or with one it writes piece by piece. */
    private void start(boolean piecewise, Buffer whole) {
        synchronized (this) {
            if (started) {
                return;
            }
            started = true;
        }
        if (piecewise) {
            streamed = new StreamedBody(this::endedWith);
        } else {
            body = whole;
        }
        CallDriver<HttpClientResponse> driver = EntryGuard.open("vertx-http-call", "a Vert.x request", () -> {
            URI uri = URI.create(first.absoluteURI());
            long limit = appTimeoutMillis();
            return new CallDriver<HttpClientResponse>(
                    warden, CallTarget.of(first.getMethod().name(), uri), limit > 0 ? Duration.ofMillis(limit) : null);
        });
        if (driver == null) {
            unmanaged();
            return;
        }
        CompletableFuture<HttpClientResponse> running =
                driver.runAsync(new VertxExchange(warden, driver, this, timer, this::onContext));
        call = running;
        running.whenComplete(this::done);
    }

    private void done(HttpClientResponse answer, Throwable failure) {
        if (failure != null) {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            ended.tryFail(cause);
            Handler<Throwable> handler = exceptionHandler();
            if (response.tryFail(cause) && handler != null && resetCause == null) {
                handler.handle(cause);
            }
            return;
        }
        if (response.tryComplete(answer)) {
            // The app's handlers are set by now (they run as the future completes): the body may flow.
            answer.resume();
        } else {
            answer.handler(null);
            answer.resume();
        }
    }

    /** The agent failed before anything was sent: the client's own request goes as without the agent. */
    private void unmanaged() {
        first.headers().clear().addAll(appHeaders);
        first.response().onComplete(response::handle);
        if (streamed != null) {
            streamed.attach(first, null);
        } else {
            (body == null ? first.end() : first.end(body)).onComplete(this::endedWith);
        }
    }

    /**
     * A request whose body only the client's own request can make (a Vert.x 5 {@code ClientForm}, which it encodes
     * with classes of its own): sent by {@code send} on that request with the app's headers, unmanaged, as a
     * {@code CONNECT} is. An error if the app already started its request.
     */
    final Future<HttpClientResponse> sendUnmanaged(Function<HttpClientRequest, Future<HttpClientResponse>> send) {
        synchronized (this) {
            if (started) {
                return Future.failedFuture(new IllegalStateException("the request was already sent"));
            }
            started = true;
        }
        first.headers().clear().addAll(appHeaders);
        Future<HttpClientResponse> sent = send.apply(first);
        sent.onComplete(response::handle);
        sent.<Void>mapEmpty().onComplete(this::endedWith);
        return sent;
    }

    void endedWith(AsyncResult<Void> result) {
        if (result.succeeded()) {
            ended.tryComplete();
        } else {
            ended.tryFail(result.cause());
        }
    }

    private void onContext(Runnable task) {
        if (Context.isOnEventLoopThread() && context == io.vertx.core.Vertx.currentContext()) {
            task.run();
        } else {
            context.runOnContext(v -> task.run());
        }
    }

    /** The options of the next attempt: the app's, with the method and URI its request has now. */
    RequestOptions nextOptions() {
        AttemptOptions next = new AttemptOptions(options);
        next.setMethod(first.getMethod()).setURI(first.getURI()).setFollowRedirects(first.isFollowRedirects());
        return next;
    }

    /**
     * The app's {@code reset}: fails its response future and cancels the call (a pending wait, the attempt in
     * flight), or resets the client's own request before the call started. Whether the response future failed here.
     */
    final boolean resetCall(long code, Throwable cause) {
        resetCause = cause;
        CompletableFuture<HttpClientResponse> running = call;
        boolean cancelled = response.tryFail(cause);
        ended.tryFail(cause);
        if (running != null) {
            running.cancel(true);
        } else {
            VertxLinks.reset(first, code, cause);
        }
        return cancelled;
    }

    Throwable resetCause() {
        Throwable cause = resetCause;
        return cause != null ? cause : new StreamResetException(0);
    }

    // ---------------------------------------------------------------------------------------------
    // The body and the end.

    @Override
    public Future<Void> write(Buffer data) {
        start(true, null);
        return streamed.write(data);
    }

    @Override
    public Future<Void> write(String chunk) {
        return write(Buffer.buffer(chunk));
    }

    @Override
    public Future<Void> write(String chunk, String enc) {
        return write(Buffer.buffer(chunk, enc));
    }

    @Override
    public Future<Void> end(Buffer chunk) {
        synchronized (this) {
            if (!started) {
                start(false, chunk);
                return ended.future();
            }
        }
        if (streamed != null) {
            streamed.write(chunk);
            streamed.end();
        }
        return ended.future();
    }

    @Override
    public Future<Void> end() {
        synchronized (this) {
            if (!started) {
                start(false, null);
                return ended.future();
            }
        }
        if (streamed != null) {
            streamed.end();
        }
        return ended.future();
    }

    @Override
    public Future<Void> end(String chunk) {
        return end(Buffer.buffer(chunk));
    }

    @Override
    public Future<Void> end(String chunk, String enc) {
        return end(Buffer.buffer(chunk, enc));
    }

    @Override
    public Future<Void> sendHead() {
        // The head goes with the first attempt; what the app writes after it is the body, piece by piece.
        start(true, null);
        return Future.succeededFuture();
    }

    @Override
    public Future<HttpClientResponse> response() {
        return response.future();
    }

    @Override
    public boolean writeQueueFull() {
        StreamedBody s = streamed;
        return s != null && s.writeQueueFull();
    }

    @Override
    public HttpClientRequest drainHandler(Handler<Void> handler) {
        start(true, null);
        streamed.drainHandler(handler);
        return this;
    }

    @Override
    public HttpClientRequest setWriteQueueMaxSize(int maxSize) {
        first.setWriteQueueMaxSize(maxSize);
        return this;
    }

    /** The method and URL only: never the headers, which may carry the app's own secrets. */
    @Override
    public String toString() {
        return "ManagedClientRequest[" + first.getMethod() + " " + first.absoluteURI() + "]";
    }
}
