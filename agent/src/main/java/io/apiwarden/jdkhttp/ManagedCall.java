package io.apiwarden.jdkhttp;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.AccessToken;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One logical call to the API: attempts it, and resends it after a token refresh or a
 * rate-limit wait until the response is final. {@link #send} runs on the caller's thread and
 * waits there; {@link #sendAsync} chains the attempts on futures and schedules its waits.
 */
final class ManagedCall<T> implements OutcomeHandler.Decider {
    /** Where the JDK's client completes the futures it hands out: the default pool of CompletableFuture. */
    private static final Executor ASYNC_POOL = new CompletableFuture<Void>().defaultExecutor();
    private static final Duration ONE_MILLI = Duration.ofMillis(1);

    private final Warden warden;
    private final HttpClient appClient;
    private final HttpClient sender;
    private final RedirectRule redirects;
    private final HttpRequest appRequest;
    private final BodyHandler<T> appHandler;
    private final PushPromiseHandler<T> pushHandler;
    private final CallState state;
    private final CallObserver observer;
    /** Sent in the configured request-ID header on every attempt of this call, so all of them match in the server's logs. */
    private final String requestId;

    // The request being managed: the app's, or where a managed redirect led. Written by one
    // attempt at a time; the futures that chain attempts publish it to the next.
    private HttpRequest current;
    private boolean repeatable;
    private boolean agentOwnsAuthorization;
    private AccessToken token;
    private int hops;

    // sendAsync only.
    private CompletableFuture<HttpResponse<T>> result;
    private volatile CompletableFuture<?> inFlight;
    private volatile DelayScheduler.Scheduled timer;
    private volatile AttemptObserver currentAttempt;
    /** Whether the response being handled arrived on the JDK's asynchronous pool (see {@link #complete}). */
    private boolean jdkThread;

    /**
     * @param sender sends the attempts; it must not follow redirects when {@code redirects} is not null
     * @param redirects how the app's client follows redirects, or null when it does not
     */
    ManagedCall(Warden warden, HttpClient appClient, HttpClient sender, RedirectRule redirects, HttpRequest appRequest,
                BodyHandler<T> appHandler, PushPromiseHandler<T> pushHandler) {
        this.warden = warden;
        this.appClient = appClient;
        this.sender = sender;
        this.redirects = redirects;
        this.appRequest = appRequest;
        this.appHandler = appHandler;
        this.pushHandler = pushHandler;
        this.state = new CallState(Deadline.after(appRequest.timeout().orElse(null), warden.clock()),
                appRequest.method(), appRequest.uri().getRawPath());
        URI uri = appRequest.uri();
        this.observer = warden.telemetry().call(appRequest.method(), uri.toString(), uri.getHost(), uri.getPort());
        this.requestId = warden.config().requestIdHeader().isPresent() ? UUID.randomUUID().toString() : null;
        manage(appRequest);
    }

    HttpResponse<T> send() throws IOException, InterruptedException {
        HttpResponse<T> response;
        try {
            response = sendAttempts();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            end(0, null, e);
            throw e;
        }
        end(response.statusCode(), verdictOf(response), null);
        return response;
    }

    private HttpResponse<T> sendAttempts() throws IOException, InterruptedException {
        token = awaitToken();
        while (true) {
            if (state.deadline().hasPassed()) {
                // The limit ran out before anything could be sent (a token wait), or as a wait ended: what the JDK raises.
                throw new HttpTimeoutException("request timed out");
            }
            AttemptObserver attempt = observer.attempt(current.expectContinue());
            HttpResponse<Outcome<T>> response;
            try (Scope wire = attempt.onTheWire()) {
                response = sender.send(prepare(attempt), handler());
            } catch (IOException | InterruptedException | RuntimeException e) {
                attempt.failed(e);
                throw e;
            }
            Outcome<T> outcome = response.body();
            observe(attempt, response, outcome);
            if (outcome.delivered) {
                return new AppResponse<>(response, appRequest, outcome.body);
            }
            if (outcome.redirect != null) {
                HttpRequest next = Requests.redirected(current, outcome.redirect.target, outcome.redirect.method);
                if (!warden.scope().contains(next.uri())) {
                    return appClient.send(next, appHandler);
                }
                manage(next);
                continue;
            }
            if (outcome.decision.action() == Decision.Action.WAIT_AND_RESEND) {
                warden.scheduler().sleep(outcome.decision.delay());
                continue;
            }
            try {
                CompletableFuture<AccessToken> fresh;
                try (Scope inCall = observer.current()) {
                    fresh = warden.tokens().tokenAfterRejection(token);
                }
                token = withinDeadline(fresh);
            } catch (ExecutionException | TimeoutException refreshFailed) {
                if (outcome.held == null) {
                    continue;
                }
                try {
                    return join(heldResponse(response, outcome));
                } catch (RuntimeException appHandlerFailed) {
                    throw sendFailure(appHandlerFailed);
                }
            }
        }
    }

    CompletableFuture<HttpResponse<T>> sendAsync() {
        result = new CompletableFuture<>();
        result.whenComplete((r, e) -> {
            if (result.isCancelled()) {
                cancelPending();
            }
            end(r == null ? 0 : r.statusCode(), r == null ? null : verdictOf(r), e);
        });
        CompletableFuture<AccessToken> first;
        try (Scope inCall = observer.current()) {
            first = state.deadline().bound(warden.tokens().tokenForRequest(), warden.scheduler());
        }
        if (first.isDone()) {
            // Same thread, as the JDK does: a request it rejects outright throws from sendAsync itself.
            token = first.getNow(null);
            attempt(true);
        } else {
            // On the JDK's pool: the token may arrive on the token store's thread or the timer, and neither
            // is the place to send the app's request (or run its body handler).
            first.whenCompleteAsync((t, e) -> {
                // Past the app's own limit, the call goes out with the token there is, and fails at once.
                token = e == null ? t : warden.tokens().current();
                attempt(false);
            }, ASYNC_POOL);
        }
        return result;
    }

    @Override
    public Decision decide(Verdict verdict, ResponseInfo info) {
        return warden.resendPolicy().decide(state, verdict, info.headers().firstValue("Retry-After").orElse(null),
                repeatable, agentOwnsAuthorization, warden.tokens().canRefresh());
    }

    private void manage(HttpRequest request) {
        if (current != null) {
            hops++;
        }
        current = request;
        repeatable = Requests.isRepeatable(request);
        agentOwnsAuthorization = warden.replacesAppAuthorization()
                || request.headers().firstValue(Requests.AUTHORIZATION).isEmpty();
    }

    /**
     * The request to put on the wire: the current one with the agent's token (when it owns the
     * header), the attempt's trace context and, when configured, a request ID.
     */
    private HttpRequest prepare(AttemptObserver attempt) {
        Map<String, String> headers = new LinkedHashMap<>(4);
        if (agentOwnsAuthorization && token != null) {
            headers.put(Requests.AUTHORIZATION, token.authorizationHeader());
            state.sendingToken(token.generation());
        }
        attempt.inject(headers::put);
        warden.config().requestIdHeader().ifPresent(name -> {
            if (current.headers().firstValue(name).isEmpty()) {
                headers.put(name, requestId);
            }
        });
        Duration timeout = state.deadline().isSet() ? atLeastOneMilli(state.deadline().remaining()) : null;
        return headers.isEmpty() && timeout == null ? current : Requests.withHeaders(current, headers, timeout);
    }

    /** Telemetry never fails a call. */
    private void end(int status, Verdict verdict, Throwable failure) {
        try {
            observer.end(status, verdict, failure);
        } catch (RuntimeException e) {
            AgentLog.once(AgentLog.Level.WARN, "jdk-telemetry", "a call's span could not be ended", e);
        }
    }

    /** Tells the attempt's observer what came back and what the agent does about it. */
    private void observe(AttemptObserver attempt, HttpResponse<Outcome<T>> response, Outcome<T> outcome) {
        attempt.response(response.statusCode(), response.version() == HttpClient.Version.HTTP_2 ? "2" : "1.1",
                name -> response.headers().allValues(name), outcome.verdict);
        attempt.decided(outcome.decision == null ? Decision.returnToApp() : outcome.decision,
                response.headers().firstValue("Retry-After").orElse(null));
    }

    /** The verdict on what the app finally got, for the call's span and meters. */
    private Verdict verdictOf(HttpResponse<?> response) {
        Verdict v = warden.classifier().fromHead(response.statusCode(), name -> response.headers().allValues(name));
        return v != null ? v : warden.classifier().fromStatus(response.statusCode());
    }

    private OutcomeHandler<T> handler() {
        return new OutcomeHandler<>(appHandler, warden.classifier(), this,
                hops < RedirectRule.MAX_HOPS ? redirects : null, current.method(), current.uri());
    }

    private AccessToken awaitToken() throws InterruptedException {
        try {
            CompletableFuture<AccessToken> token;
            try (Scope inCall = observer.current()) {
                token = warden.tokens().tokenForRequest();
            }
            return withinDeadline(token);
        } catch (ExecutionException | TimeoutException e) {
            return warden.tokens().current();
        }
    }

    /** Waits for {@code future} no longer than the app's own limit for the call allows. */
    private <R> R withinDeadline(CompletableFuture<R> future) throws ExecutionException, InterruptedException, TimeoutException {
        Deadline deadline = state.deadline();
        return deadline.isSet() ? future.get(deadline.remaining().toNanos(), TimeUnit.NANOSECONDS) : future.get();
    }

    /** The JDK refuses a time-out of zero: the last moment of a limit is a millisecond. */
    private static Duration atLeastOneMilli(Duration d) {
        return d.compareTo(ONE_MILLI) < 0 ? ONE_MILLI : d;
    }

    /** The response that was held back for a refresh that then failed: the app gets it after all. */
    private CompletionStage<HttpResponse<T>> heldResponse(HttpResponse<Outcome<T>> response, Outcome<T> outcome) {
        return PeekingSubscriber.replay(appHandler, outcome.info, outcome.held)
                .thenApply(body -> new AppResponse<>(response, appRequest, body));
    }

    private void attempt(boolean mayThrow) {
        if (result.isDone()) {
            return;
        }
        if (state.deadline().hasPassed()) {
            fail(new HttpTimeoutException("request timed out"));
            return;
        }
        CompletableFuture<HttpResponse<Outcome<T>>> sent;
        AttemptObserver attempt = observer.attempt(current.expectContinue());
        currentAttempt = attempt;
        try (Scope wire = attempt.onTheWire()) {
            sent = pushHandler == null
                    ? sender.sendAsync(prepare(attempt), handler())
                    : sender.sendAsync(prepare(attempt), handler(), adaptPushHandler());
        } catch (RuntimeException e) {
            attempt.failed(e);
            if (mayThrow) {
                // The app never sees this future; completing it ends the call's span.
                result.completeExceptionally(e);
                throw e;
            }
            fail(e);
            return;
        }
        inFlight = sent;
        if (result.isCancelled()) {
            // The app cancelled between the check above and now.
            sent.cancel(true);
        }
        Thread sending = Thread.currentThread();
        sent.whenComplete((response, failure) -> {
            // On another thread than the one that sent, this runs where the JDK completed the attempt: its
            // asynchronous pool, where the app's own continuations belong. On the same thread it ran at once
            // (the attempt was over already), maybe on the agent's timer: then the app's future is completed
            // from the pool instead.
            jdkThread = Thread.currentThread() != sending;
            onResponse(response, failure);
        });
    }

    private void onResponse(HttpResponse<Outcome<T>> response, Throwable failure) {
        if (failure != null) {
            currentAttempt.failed(failure);
            fail(failure);
            return;
        }
        try {
            observe(currentAttempt, response, response.body());
            next(response, response.body());
        } catch (RuntimeException e) {
            // Never resend here: the request may have been processed, and its body may be spent.
            AgentLog.once(AgentLog.Level.WARN, "async-step", "an asynchronous call could not be continued", e);
            fail(asSendException(e));
        }
    }

    private void next(HttpResponse<Outcome<T>> response, Outcome<T> outcome) {
        if (outcome.delivered) {
            complete(new AppResponse<>(response, appRequest, outcome.body));
            return;
        }
        if (outcome.redirect != null) {
            HttpRequest next = Requests.redirected(current, outcome.redirect.target, outcome.redirect.method);
            if (!warden.scope().contains(next.uri())) {
                pipe(appClient.sendAsync(next, appHandler));
                return;
            }
            manage(next);
            attempt(false);
            return;
        }
        if (outcome.decision.action() == Decision.Action.WAIT_AND_RESEND) {
            timer = warden.scheduler().schedule(outcome.decision.delay(), () -> attempt(false));
            if (result.isCancelled()) {
                timer.cancel();
            }
            return;
        }
        CompletableFuture<AccessToken> refreshed;
        try (Scope inCall = observer.current()) {
            refreshed = state.deadline().bound(warden.tokens().tokenAfterRejection(token), warden.scheduler());
        }
        // On the JDK's pool, for the reason above: a failed refresh hands the app's handler the held body here.
        refreshed.whenCompleteAsync((fresh, refreshFailed) -> {
            try {
                if (refreshFailed == null) {
                    token = fresh;
                    attempt(false);
                } else if (outcome.held == null) {
                    attempt(false);
                } else {
                    pipe(heldResponse(response, outcome));
                }
            } catch (RuntimeException e) {
                fail(asSendException(e));
            }
        }, ASYNC_POOL);
    }

    /**
     * Completes the app's future from the JDK's asynchronous pool, as the JDK's own client does:
     * the app's continuations must never run on the agent's timer or the token client's threads.
     */
    private void pipe(CompletionStage<HttpResponse<T>> stage) {
        inFlight = stage.toCompletableFuture();
        stage.whenCompleteAsync((r, e) -> {
            if (e != null) {
                result.completeExceptionally(e);
            } else {
                result.complete(r);
            }
        }, ASYNC_POOL);
    }

    /**
     * Hands the app its response. On the JDK's pool already, at once: another hop would start one more
     * thread per call where the pool is a thread per task (the JDK's choice on machines of one or two
     * cores), which more than doubled the time of a {@code sendAsync} call in the benchmarks.
     */
    private void complete(HttpResponse<T> response) {
        if (jdkThread) {
            result.complete(response);
        } else {
            pipe(CompletableFuture.completedFuture(response));
        }
    }

    private void fail(Throwable failure) {
        ASYNC_POOL.execute(() -> result.completeExceptionally(failure));
    }

    private void cancelPending() {
        DelayScheduler.Scheduled t = timer;
        if (t != null) {
            t.cancel();
        }
        CompletableFuture<?> f = inFlight;
        if (f != null) {
            f.cancel(true);
        }
    }

    /** Server push for the app's handler: the app sees its own request and its own body type. */
    private PushPromiseHandler<Outcome<T>> adaptPushHandler() {
        return (initiating, pushRequest, acceptor) -> pushHandler.applyPushPromise(appRequest, pushRequest,
                appBodyHandler -> acceptor.apply(info -> BodySubscribers.mapping(appBodyHandler.apply(info),
                                body -> Outcome.delivered(Verdict.SUCCESS, body)))
                        .thenApply(pushed -> new AppResponse<>(pushed, pushed.request(), pushed.body().body)));
    }

    /**
     * What {@code HttpClient.send} throws for a failure of the app's body handler: argument and
     * security errors as they are, anything else wrapped in an {@link IOException}.
     */
    private static Exception asSendException(RuntimeException e) {
        if (e instanceof IllegalArgumentException || e instanceof SecurityException) {
            return e;
        }
        return new IOException(e.getClass().getName() + " while the response was handled", e);
    }

    /** {@link #asSendException} for {@code send}: throws the runtime exceptions, returns the I/O one to throw. */
    private static IOException sendFailure(RuntimeException e) {
        Exception mapped = asSendException(e);
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
            Throwable cause = e.getCause() instanceof CompletionException && e.getCause().getCause() != null
                    ? e.getCause().getCause() : e.getCause();
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
