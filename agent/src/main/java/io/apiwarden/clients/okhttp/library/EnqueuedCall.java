package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Request;
import okhttp3.Response;

/**
 * One enqueued OkHttp call to the API, run on the engine's asynchronous face
 * ({@link CallDriver#runAsync}) instead of by OkHttp: each attempt is a {@link Call#clone() copy}
 * of the app's call on the app's client, enqueued, which the agent's interceptor sends once
 * ({@link EnqueuedAttempt}); the engine's waits are on the agent's timer and hold no dispatcher
 * thread. The app's callback is called once, with the app's own {@link Call}, on a dispatcher
 * thread; {@code Call.cancel()} cancels the engine's future, which stops a wait at once and
 * cancels the copy in flight.
 */
final class EnqueuedCall extends OkHttpRequest implements Exchange.Async<Response> {
    private final Warden warden;
    private final EnqueuedCalls calls;
    private final Call original;
    private final Callback app;
    private final Executor dispatcher;

    final CallDriver<Response> driver;
    /** An interceptor of the app's set its own {@code Authorization} on an attempt: later attempts know. */
    private volatile boolean appSetAuthorization;

    private volatile CompletableFuture<Response> result;

    EnqueuedCall(Warden warden, EnqueuedCalls calls, Call original, Callback app, Executor dispatcher) {
        // The app's request, as the app made the call (its interceptors run again on each copy).
        super(original.request());
        this.warden = warden;
        this.calls = calls;
        this.original = original;
        this.app = app;
        this.dispatcher = dispatcher;
        this.driver = OkHttpExchange.driverFor(request, original, warden);
    }

    /** Runs the call; what the engine throws at once (nothing went out) goes to the caller. */
    void start() {
        CompletableFuture<Response> r = driver.runAsync(this);
        result = r;
        r.whenComplete(this::answer);
        if (original.isCanceled()) {
            // Cancelled before, or while the call started: cancel() found no future to cancel.
            r.cancel(true);
        }
    }

    /** The app cancelled its call. */
    void cancel() {
        CompletableFuture<Response> r = result;
        if (r != null) {
            r.cancel(true);
        }
    }

    private void answer(Response response, Throwable failure) {
        calls.ended(original);
        if (failure == null) {
            callBack(response, null);
        } else if (failure instanceof CancellationException) {
            // Never on the thread that called cancel(): OkHttp never calls back there either.
            onDispatcher(() -> callBack(null, new IOException("Canceled")));
        } else {
            Throwable cause =
                    failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
            callBack(null, cause instanceof IOException ? (IOException) cause : new IOException(cause));
        }
    }

    /**
     * Calls the app back. What its callback throws goes where OkHttp lets it go: an
     * {@link IOException} nowhere, anything else to the thread's uncaught-exception handler.
     */
    private void callBack(Response response, IOException failure) {
        try {
            if (failure == null) {
                app.onResponse(original, response);
            } else {
                app.onFailure(original, failure);
            }
        } catch (IOException ignored) {
            // OkHttp only logs it.
        } catch (RuntimeException | Error e) {
            Thread t = Thread.currentThread();
            t.getUncaughtExceptionHandler().uncaughtException(t, e);
        }
    }

    /** Whether the app set its own {@code Authorization} on {@code arriving} after the driver prepared the attempt. */
    boolean appSetAuthorization(Request arriving, AttemptHeaders headers) {
        String auth = AttemptRequest.AUTHORIZATION;
        if (headers.get(auth) == null || arriving.header(auth) == null || hasHeader(auth)) {
            return false;
        }
        appSetAuthorization = true;
        return true;
    }

    @Override
    public boolean hasHeader(String name) {
        return request.header(name) != null
                || (appSetAuthorization && AttemptRequest.AUTHORIZATION.equalsIgnoreCase(name));
    }

    @Override
    public EnqueuedAttempt sendAsync(AttemptHeaders headers, Duration timeout, Judge judge) {
        Call copy = original.clone();
        if (timeout != null) {
            try {
                // A copy starts a call timeout of its own: what is left of the app's, not the whole again.
                copy.timeout().timeout(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (LinkageError olderOkHttp) {
                // Before 3.12: no call timeout, none to shorten.
            }
        }
        EnqueuedAttempt attempt = new EnqueuedAttempt(warden, this, copy, headers, judge);
        calls.sending(copy, attempt);
        copy.enqueue(attempt);
        return attempt;
    }

    /** The attempt sent as {@code copy} is over. */
    void attemptEnded(Call copy) {
        calls.sent(copy);
    }

    @Override
    public DelayScheduler timer() {
        return warden.scheduler();
    }

    /** OkHttp's dispatcher threads, where OkHttp calls an app back. */
    @Override
    public Executor completions() {
        return this::onDispatcher;
    }

    private void onDispatcher(Runnable task) {
        try {
            dispatcher.execute(task);
        } catch (RejectedExecutionException shutDown) {
            // The app shut its dispatcher down: OkHttp then fails a call on the caller's thread too.
            task.run();
        }
    }
}
