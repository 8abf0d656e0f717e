package io.apiwarden.clients.jetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.time.DelayScheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.eclipse.jetty.client.ByteBufferRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.client.transport.HttpRequest;
import org.eclipse.jetty.client.transport.HttpResponse;
import org.eclipse.jetty.client.transport.ResponseListeners;

/**
 * Jetty's side of one managed request, driven by the {@link CallDriver}'s asynchronous face. The app's
 * request never goes out: each attempt is a fresh request of the same client with the app's settings,
 * headers and body (recorded when Jetty cannot send it twice) and the attempt's own headers and
 * time-out; the app's response listeners (those on its request and the one it passed to
 * {@code send}) get the final attempt's response as it streams in, the others are drained.
 *
 * <p>No thread waits: a token, the rate-limit gate and a back-off are the engine's futures on the
 * agent's timer, and the blocking {@code send()} waits on Jetty's own future as without the agent. The
 * app's {@code abort(cause)} cancels the call: a pending wait is dropped, an attempt in flight aborted.
 */
final class JettyExchange implements Exchange.Async<Response> {
    private final Warden warden;
    private final HttpClient client;
    private final HttpRequest app;
    /** The app's listeners: those on its request, then the one passed to {@code send}, as Jetty orders them. */
    final ResponseListeners appListeners;

    private final CallDriver<Response> driver;
    private final Request.Content body;
    /** Whether the app's listeners have been told a response, or the call's failure: once only. */
    private final AtomicBoolean told = new AtomicBoolean();

    private volatile CompletableFuture<Response> call;
    private volatile JettyAttempt current;
    private volatile Throwable abortCause;
    /** What the first attempt recorded of a body Jetty cannot send twice; null when nothing is recorded. */
    private volatile RecordedBody recording;

    private volatile boolean sentAny;

    JettyExchange(Warden warden, HttpClient client, HttpRequest app, Response.CompleteListener listener) {
        this.warden = warden;
        this.client = client;
        this.app = app;
        this.body = app.getBody();
        this.appListeners = new ResponseListeners(app.getResponseListeners());
        appListeners.addCompleteListener(listener, true);
        long timeout = app.getTimeout();
        // Request.timeout(...) bounds the whole exchange: here, the whole call, waits included.
        this.driver = new CallDriver<>(
                warden, CallTarget.of(app.getMethod(), app.getURI()), timeout > 0 ? Duration.ofMillis(timeout) : null);
    }

    /**
     * Runs the call; false when the agent failed before anything was sent, and the request is to go as
     * without the agent.
     */
    boolean start() {
        CompletableFuture<Response> c;
        try {
            c = driver.runAsync(this);
        } catch (RuntimeException | Error e) {
            if (sentAny) {
                failApp(e);
                return true;
            }
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "jetty-call-start",
                    "a Jetty client call could not be managed; it goes out as without the agent",
                    e);
            return false;
        }
        call = c;
        if (abortCause != null) {
            c.cancel(true);
        }
        c.whenComplete((response, failure) -> {
            if (failure != null) {
                failApp(failure);
            }
        });
        return true;
    }

    /** The app aborted its request: the call ends with {@code cause}, and an attempt on the wire is aborted with it. */
    void aborted(Throwable cause) {
        if (abortCause == null) {
            abortCause = cause;
        }
        CompletableFuture<Response> c = call;
        if (c != null) {
            c.cancel(true);
        }
        JettyAttempt a = current;
        if (a != null) {
            a.request.abort(cause);
        }
    }

    @Override
    public boolean hasHeader(String name) {
        return app.getHeaders().contains(name);
    }

    /** Jetty sends again only a body in memory (strings, arrays, buffers, forms), rewound for each attempt. */
    @Override
    public boolean bodyRepeatable() {
        return body == null || body instanceof ByteBufferRequestContent;
    }

    @Override
    public boolean expectContinue() {
        return body != null && app.getHeaders().contains("Expect");
    }

    @Override
    public CompletableFuture<? extends Attempt.Async<Response>> sendAsync(
            AttemptHeaders headers, Duration timeout, Judge judge) {
        HttpRequest attempt = (HttpRequest) client.newRequest(app.getURI());
        copySettings(attempt, timeout);
        List<String[]> agentHeaders = new ArrayList<>();
        headers.forEach((name, value) -> agentHeaders.add(new String[] {name, value}));
        attempt.headers(h -> {
            h.clear().add(app.getHeaders());
            for (String[] header : agentHeaders) {
                h.put(header[0], header[1]);
            }
        });
        attempt.body(bodyForAttempt());
        JettyAttempt a = new JettyAttempt(this, attempt, agentHeaders, judge, warden);
        attempt.getConversation().setAttribute(WardenJettyHttp.ATTEMPT, a);
        current = a;
        sentAny = true;
        if (abortCause != null) {
            a.request.abort(abortCause);
        }
        attempt.send(a);
        return a.future;
    }

    /** What the attempt takes of the app's request besides its URI, headers and body. */
    private void copySettings(HttpRequest attempt, Duration timeout) {
        attempt.method(app.getMethod());
        if (app.isVersionExplicit()) {
            // Otherwise the version is the client's to choose, per destination, as for the app's request.
            attempt.version(app.getVersion());
        }
        attempt.idleTimeout(app.getIdleTimeout(), TimeUnit.MILLISECONDS);
        if (timeout != null) {
            attempt.timeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
        }
        attempt.followRedirects(app.isFollowRedirects());
        attempt.tag(app.getTag());
        attempt.transport(app.getTransport());
        attempt.trailersSupplier(app.getTrailersSupplier());
        app.getAttributes().forEach(attempt::attribute);
        app.getCookies().forEach(attempt::cookie);
    }

    /**
     * The body an attempt sends: the app's own when Jetty can send it again (rewound from the second
     * attempt on), the recording of the first attempt when it could not and was recorded whole, and on
     * the first attempt a tee that records it.
     */
    private Request.Content bodyForAttempt() {
        if (body == null) {
            return null;
        }
        if (bodyRepeatable()) {
            if (sentAny) {
                body.rewind();
            }
            return body;
        }
        if (!sentAny) {
            RecordedBody r = driver.recordBody(body.getLength());
            recording = r;
            return r == null ? body : new RecordingContent(body, r);
        }
        RecordedBody r = recording;
        // The driver resends a body Jetty cannot send again only when it was recorded whole.
        return r != null && r.isComplete() ? new RecordingContent.Replay(body, r.buffers()) : body;
    }

    // ---------------------------------------------------------------------------------------------
    // What the app's listeners are told, once for the call.

    /** Whether the app's listeners may still get a response: false once the call ended without one. */
    boolean claimResponse() {
        return told.compareAndSet(false, true);
    }

    /** The result the app's complete listener gets: the app's own request, the attempt's response and failures. */
    Result resultForApp(Result attempt) {
        return new Result(app, attempt.getRequestFailure(), attempt.getResponse(), attempt.getResponseFailure());
    }

    /** The call failed, or was aborted, before the app got a response: its listeners hear it as Jetty tells a failed request. */
    private void failApp(Throwable failure) {
        if (!told.compareAndSet(false, true)) {
            return;
        }
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof CancellationException && abortCause != null) {
            cause = abortCause;
        }
        HttpResponse none = new HttpResponse(app);
        appListeners.notifyFailure(none, cause);
        appListeners.notifyComplete(new Result(app, cause, none, cause));
    }

    // ---------------------------------------------------------------------------------------------
    // How the engine waits: never on a Jetty thread, always on the agent's timer.

    /** What Jetty raises when a request's whole time-out is over. */
    @Override
    public Exception timedOut() {
        return new TimeoutException("Total timeout " + app.getTimeout() + " ms elapsed");
    }

    @Override
    public DelayScheduler timer() {
        return warden.scheduler();
    }

    /** Where Jetty itself runs the app's listeners. */
    @Override
    public Executor completions() {
        return client.getExecutor();
    }

    @Override
    public int status(Response response) {
        return response.getStatus();
    }

    @Override
    public Function<String, List<String>> headers(Response response) {
        return name -> response.getHeaders().getValuesList(name);
    }
}
