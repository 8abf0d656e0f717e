package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.CancelThrough;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Failures;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.time.DelayScheduler;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The JDK client's side of one logical call to the API, driven by a {@link CallDriver}: how an
 * attempt goes out ({@code send} or {@code sendAsync} with an {@link OutcomeHandler} around the
 * app's {@link BodyHandler}), which redirect hops the agent follows itself, and how the app gets
 * its response ({@link AppResponse}: the app's request, never the one that carried the token).
 */
final class ManagedCall<T>
        implements Exchange.Blocking<HttpResponse<T>>,
                Exchange.Async<HttpResponse<T>>,
                Function<HttpResponse<Outcome<T>>, ManagedCall<T>.JdkAttempt> {
    /** Where the JDK's client completes the futures it hands out: the default pool of CompletableFuture. */
    private static final Executor ASYNC_POOL = new CompletableFuture<Void>().defaultExecutor();

    private static final boolean JDK_PASSES_CANCEL_ON = Runtime.version().feature() >= 16;

    private final Warden warden;
    private final HttpClient appClient;
    private final HttpClient sender;
    private final RedirectRule redirects;
    private final HttpRequest appRequest;
    private final BodyHandler<T> appHandler;
    private final PushPromiseHandler<T> pushHandler;
    private final CallDriver<HttpResponse<T>> driver;
    /** The client's last attempt headers, reused when this call's are the same. */
    private final LastAttemptHeaders lastHeaders;

    // The request being managed: the app's, or where a managed redirect led. Written by one
    // attempt at a time; the futures that chain attempts publish it to the next.
    private HttpRequest current;
    private int hops;

    /**
     * @param sender sends the attempts; it must not follow redirects when {@code redirects} is not null
     * @param redirects how the app's client follows redirects, or null when it does not
     */
    ManagedCall(
            Warden warden,
            HttpClient appClient,
            HttpClient sender,
            RedirectRule redirects,
            HttpRequest appRequest,
            BodyHandler<T> appHandler,
            PushPromiseHandler<T> pushHandler,
            LastAttemptHeaders lastHeaders) {
        this.warden = warden;
        this.lastHeaders = lastHeaders;
        this.appClient = appClient;
        this.sender = sender;
        this.redirects = redirects;
        this.appRequest = appRequest;
        this.appHandler = appHandler;
        this.pushHandler = pushHandler;
        this.current = appRequest;
        this.driver = new CallDriver<>(
                warden,
                CallTarget.of(appRequest.method(), appRequest.uri()),
                appRequest.timeout().orElse(null));
    }

    HttpResponse<T> send() throws IOException, InterruptedException {
        return driver.run(this);
    }

    CompletableFuture<HttpResponse<T>> sendAsync() {
        return driver.runAsync(this);
    }

    @Override
    public boolean hasHeader(String name) {
        // Not firstValue: the JDK's makes a stream per look, and this is asked on every attempt.
        return !current.headers().allValues(name).isEmpty();
    }

    @Override
    public boolean bodyRepeatable() {
        return Requests.isRepeatable(current);
    }

    @Override
    public boolean expectContinue() {
        return current.expectContinue();
    }

    @Override
    public Attempt.Blocking<HttpResponse<T>> send(AttemptHeaders headers, Duration timeout, Judge judge)
            throws IOException, InterruptedException {
        return new JdkAttempt(sender.send(prepare(headers, timeout), handler(judge)));
    }

    @Override
    public CompletableFuture<JdkAttempt> sendAsync(AttemptHeaders headers, Duration timeout, Judge judge) {
        CompletableFuture<HttpResponse<Outcome<T>>> sent = pushHandler == null
                ? sender.sendAsync(prepare(headers, timeout), handler(judge))
                : sender.sendAsync(prepare(headers, timeout), handler(judge), adaptPushHandler());
        // A cancel by the app must reach the JDK's own future, which ends the exchange.
        return CancelThrough.map(sent, this);
    }

    /** An attempt's response as the engine's attempt: the call is the mapping itself, where a method reference would be one more object. */
    @Override
    public JdkAttempt apply(HttpResponse<Outcome<T>> response) {
        return new JdkAttempt(response);
    }

    @Override
    public <R> R await(CompletableFuture<R> future, Deadline deadline, String what) throws InterruptedException {
        // A blocking send is cancelled by interrupting it: the wait has no other cancel to listen for.
        return BlockingWait.await(future, deadline);
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        warden.scheduler().sleep(delay);
    }

    @Override
    public Exception timedOut() {
        // What the JDK raises when a request's own time-out runs out.
        return new HttpTimeoutException("request timed out");
    }

    @Override
    public DelayScheduler timer() {
        return warden.scheduler();
    }

    @Override
    public Executor completions() {
        return ASYNC_POOL;
    }

    /**
     * The app gets the call's future itself, and the JDK's own futures pass a cancel on from futures made from them
     * from JDK 16 on; below that, the agent's do not either.
     */
    @Override
    public boolean madeFuturesCancelTheCall() {
        return JDK_PASSES_CANCEL_ON;
    }

    @Override
    public int status(HttpResponse<T> response) {
        return response.statusCode();
    }

    @Override
    public Function<String, List<String>> headers(HttpResponse<T> response) {
        return new HeaderValues(response.headers());
    }

    /**
     * The request to put on the wire: the current one with the attempt's headers and time-out, and
     * a body the client cannot send twice recorded as it goes, or sent again from its recording.
     */
    private HttpRequest prepare(AttemptHeaders headers, Duration timeout) {
        BodyPublisher body = attemptBody();
        if (headers.isEmpty() && timeout == null && body == null) {
            return current;
        }
        HttpHeaders sent = headers.isEmpty() ? current.headers() : lastHeaders.merge(current.headers(), headers);
        return new AttemptRequest(current, sent, timeout, body);
    }

    /**
     * The body of this attempt when it is not the current request's own: null for a body the
     * client can send again itself (no copy is made of those), or when nothing is recorded.
     */
    private BodyPublisher attemptBody() {
        try {
            BodyPublisher app = current.bodyPublisher().orElse(null);
            if (app == null || Requests.isRepeatable(current)) {
                return null;
            }
            RecordedBody recording = driver.recordBody(app.contentLength());
            if (recording == null) {
                return null;
            }
            // A resend (or a redirect hop that keeps the body) after the first attempt sent it whole.
            return recording.isComplete()
                    ? new ReplayPublisher(recording, app.contentLength())
                    : new RecordingPublisher(app, recording);
        } catch (RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN, "body-recording", "a request body could not be recorded for a resend", e);
            return null;
        }
    }

    private OutcomeHandler<T> handler(Judge judge) {
        return new OutcomeHandler<>(
                appHandler,
                warden.classifier(),
                judge,
                hops < RedirectRule.MAX_HOPS ? redirects : null,
                current.method(),
                current.uri(),
                warden.config().maxErrorBodyWait());
    }

    /** Server push for the app's handler: the app sees its own request and its own body type. */
    private PushPromiseHandler<Outcome<T>> adaptPushHandler() {
        return (initiating, pushRequest, acceptor) -> pushHandler.applyPushPromise(
                appRequest, pushRequest, appBodyHandler -> acceptor.apply(info -> BodySubscribers.mapping(
                                appBodyHandler.apply(info), body -> Outcome.delivered(Verdict.SUCCESS, body)))
                        .thenApply(pushed -> new AppResponse<>(pushed, pushed.request(), pushed.body().body)));
    }

    /** One attempt's response, its body already in the app's type or held back by the {@link OutcomeHandler}. */
    final class JdkAttempt extends JudgedAttempt<HttpResponse<T>>
            implements Attempt.Blocking<HttpResponse<T>>,
                    Attempt.Async<HttpResponse<T>>,
                    Function<String, List<String>> {
        private final HttpResponse<Outcome<T>> response;
        private final Outcome<T> outcome;
        /** Where an out-of-scope redirect leads: the app's own client follows it, unmanaged. */
        private HttpRequest unmanagedHop;

        private boolean followed;

        JdkAttempt(HttpResponse<Outcome<T>> response) {
            this.response = response;
            this.outcome = response.body();
            // Judged as the response arrived (OutcomeHandler), before the attempt was made.
            judged(outcome.verdict, outcome.decision == null ? Decision.returnToApp() : outcome.decision);
            if (outcome.redirect != null) {
                HttpRequest next = Requests.redirected(current, outcome.redirect.target, outcome.redirect.method);
                if (warden.scope().contains(next.uri())) {
                    hops++;
                    current = next;
                    followed = true;
                } else {
                    unmanagedHop = next;
                }
            }
        }

        @Override
        public int status() {
            return response.statusCode();
        }

        @Override
        public String protocolVersion() {
            return response.version() == HttpClient.Version.HTTP_2 ? "2" : "1.1";
        }

        /** The attempt is its own header look-up: {@link #headers} is asked twice per attempt, and makes nothing. */
        @Override
        public Function<String, List<String>> headers() {
            return this;
        }

        @Override
        public List<String> apply(String name) {
            return response.headers().allValues(name);
        }

        @Override
        public String retryAfter() {
            return OutcomeHandler.firstValue(response.headers(), "Retry-After");
        }

        @Override
        public boolean followedRedirect() {
            return followed;
        }

        @Override
        public boolean canHandBack() {
            return outcome.held != null;
        }

        @Override
        public HttpResponse<T> deliver() throws IOException, InterruptedException {
            if (outcome.delivered) {
                return new AppResponse<>(response, appRequest, outcome.body);
            }
            if (unmanagedHop != null) {
                return appClient.send(unmanagedHop, appHandler);
            }
            try {
                return join(heldResponse());
            } catch (RuntimeException appHandlerFailed) {
                throw sendFailure(appHandlerFailed);
            }
        }

        @Override
        public HttpResponse<T> deliveredNow() {
            return outcome.delivered ? new AppResponse<>(response, appRequest, outcome.body) : null;
        }

        @Override
        public CompletionStage<HttpResponse<T>> deliverAsync() {
            if (outcome.delivered) {
                return CompletableFuture.completedFuture(new AppResponse<>(response, appRequest, outcome.body));
            }
            if (unmanagedHop != null) {
                return appClient.sendAsync(unmanagedHop, appHandler);
            }
            return heldResponse();
        }

        /** The response that was held back for a refresh that then failed: the app gets it after all. */
        private CompletionStage<HttpResponse<T>> heldResponse() {
            return PeekingSubscriber.replay(appHandler, outcome.info, outcome.held)
                    .thenApply(body -> new AppResponse<>(response, appRequest, body));
        }

        @Override
        public void discard() {
            // The OutcomeHandler drained (or cut) every body that does not go to the app.
        }
    }

    /** {@link Failures#asSendException} for {@code send}: throws the runtime exceptions, returns the I/O one to throw. */
    private static IOException sendFailure(RuntimeException e) {
        Exception mapped = Failures.asSendException(e);
        if (mapped instanceof RuntimeException) {
            throw (RuntimeException) mapped;
        }
        return (IOException) mapped;
    }

    /** Waits for a stage the way {@code HttpClient.send} waits for its body. */
    private static <R> R join(CompletionStage<R> stage) throws IOException, InterruptedException {
        try {
            return stage.toCompletableFuture().get();
        } catch (ExecutionException e) {
            Throwable cause =
                    e.getCause() instanceof CompletionException && e.getCause().getCause() != null
                            ? e.getCause().getCause()
                            : e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw sendFailure((RuntimeException) cause);
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IOException(cause);
        }
    }
}
