package io.apiwarden.okhttp;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.token.AccessToken;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * One managed OkHttp request: attempts it through the rest of the chain and resends after a
 * token refresh or a rate-limit wait until the response is final.
 *
 * <p>Inside {@code execute()} the wait happens here, on the caller's thread, and ends early when
 * the call is cancelled. Inside {@code enqueue()} ({@code async != null}) a wait would hold a
 * dispatcher thread, so the response goes back to {@link AsyncRetries}, which schedules a copy
 * of the call instead.
 */
final class ManagedOkHttpCall {
    private static final String AUTHORIZATION = "Authorization";

    private final Warden warden;
    private final Interceptor.Chain chain;
    private final AsyncRetries.State async;
    private final AsyncRetries retries;
    private final Request request;
    private final CallState state;
    private final boolean repeatable;
    private final boolean agentOwnsAuthorization;
    /** Sent in the configured request-ID header on every attempt of this call. */
    private final String requestId;

    ManagedOkHttpCall(Warden warden, Interceptor.Chain chain, AsyncRetries.State async, AsyncRetries retries) {
        this.warden = warden;
        this.chain = chain;
        this.async = async;
        this.retries = retries;
        this.request = chain.request();
        this.state = async != null ? async.callState : newState(request, deadlineOf(chain.call(), warden));
        this.repeatable = isRepeatable(request.body());
        this.agentOwnsAuthorization = warden.replacesAppAuthorization() || request.header(AUTHORIZATION) == null;
        this.requestId = async != null ? async.requestId
                : warden.config().requestIdHeader().isPresent() ? java.util.UUID.randomUUID().toString() : null;
    }

    Response proceed() throws IOException {
        if (async != null) {
            // An enqueued call's span spans its copies: AsyncRetries ends it when the app is called back.
            async.resendAfter(null, null);
            return attempts(async.observer);
        }
        HttpUrl url = request.url();
        CallObserver observer = warden.telemetry().call(request.method(), url.toString(), url.host(), url.port());
        Response response;
        try {
            response = attempts(observer);
        } catch (IOException | RuntimeException | Error e) {
            end(observer, 0, null, e);
            throw e;
        }
        end(observer, response.code(), verdictOf(warden, response), null);
        return response;
    }

    /** Telemetry never fails a call. */
    private static void end(CallObserver observer, int status, Verdict verdict, Throwable failure) {
        try {
            observer.end(status, verdict, failure);
        } catch (RuntimeException e) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-telemetry", "a call's span could not be ended", e);
        }
    }

    private Response attempts(CallObserver observer) throws IOException {
        AccessToken token;
        try (Scope inCall = observer.current()) {
            token = retries.await(chain.call(), warden.tokens().tokenForRequest(), state.deadline(), "a token");
        }
        if (token == null) {
            // No token in time (or none to be had): the call goes with what there is; past the app's
            // own limit OkHttp has cancelled it already and fails it as it would without the agent.
            token = warden.tokens().current();
        }
        while (true) {
            AttemptObserver attempt = observer.attempt(false);
            Request.Builder sent = request.newBuilder();
            if (agentOwnsAuthorization && token != null) {
                sent.header(AUTHORIZATION, token.authorizationHeader()).tag(TokenFence.AgentToken.class, TokenFence.AgentToken.MARK);
                state.sendingToken(token.generation());
            }
            attempt.inject(sent::header);
            if (requestId != null && request.header(warden.config().requestIdHeader().get()) == null) {
                sent.header(warden.config().requestIdHeader().get(), requestId);
            }
            Response response;
            try (Scope wire = attempt.onTheWire()) {
                response = chain.proceed(sent.build());
            } catch (IOException | RuntimeException e) {
                attempt.failed(e);
                throw e;
            }
            try {
                Decision decision = decide(attempt, response);
                switch (decision.action()) {
                    case REFRESH_AND_RESEND:
                        AccessToken fresh;
                        try (Scope inCall = observer.current()) {
                            fresh = awaitRefresh(token);
                        }
                        if (fresh == null) {
                            return forApp(response);
                        }
                        response.close();
                        token = fresh;
                        break;
                    case WAIT_AND_RESEND:
                        if (async != null) {
                            async.resendAfter(decision.delay(), response);
                            return response;
                        }
                        response.close();
                        retries.waitFor(chain.call(), decision.delay());
                        break;
                    default:
                        return forApp(response);
                }
            } catch (IOException | RuntimeException | Error e) {
                // Whatever fails after the response arrived, its connection goes back to the pool.
                response.close();
                throw e;
            }
        }
    }

    /** Classifies the response, tells telemetry, and decides (which counts the step). */
    private Decision decide(AttemptObserver attempt, Response response) {
        Verdict verdict = classify(response);
        attempt.response(response.code(), protocol(response), response::headers, verdict);
        if (!WardenInterceptor.inScope(warden, response.request().url())) {
            attempt.decided(Decision.returnToApp(), null);
            return Decision.returnToApp();
        }
        Decision decision = warden.resendPolicy().decide(state, verdict, response.header("Retry-After"),
                repeatable, agentOwnsAuthorization, warden.tokens().canRefresh());
        attempt.decided(decision, response.header("Retry-After"));
        return decision;
    }

    /**
     * The response with the request as the app would see it: OkHttp 3 and 4 print a request's
     * headers in {@code toString()}, so the agent's token must not be in {@code response.request()}.
     */
    private Response forApp(Response response) {
        if (!agentOwnsAuthorization || response.request().header(AUTHORIZATION) == null) {
            return response;
        }
        String appsOwn = request.header(AUTHORIZATION);
        Request.Builder shown = response.request().newBuilder();
        if (appsOwn == null) {
            shown.removeHeader(AUTHORIZATION);
        } else {
            shown.header(AUTHORIZATION, appsOwn);
        }
        return response.newBuilder().request(shown.build()).build();
    }

    /** The verdict on what the app finally got, for the call's span and meters. */
    static Verdict verdictOf(Warden warden, Response response) {
        Verdict v = warden.classifier().fromHead(response.code(), response::headers);
        return v != null ? v : warden.classifier().fromStatus(response.code());
    }

    private static String protocol(Response response) {
        switch (response.protocol().toString()) {
            case "h2":
            case "h2_prior_knowledge":
                return "2";
            case "http/1.0":
                return "1.0";
            default:
                return "1.1";
        }
    }

    private Verdict classify(Response response) {
        ResponseClassifier classifier = warden.classifier();
        int code = response.code();
        Verdict verdict = classifier.fromHead(code, response::headers);
        if (verdict != null) {
            return verdict;
        }
        try {
            // peekBody copies up to the limit and leaves the body whole for the app.
            byte[] head = response.peekBody(ResponseClassifier.BODY_PEEK_LIMIT + 1L).bytes();
            return head.length > ResponseClassifier.BODY_PEEK_LIMIT
                    ? classifier.fromStatus(code) : classifier.fromBody(code, head, head.length);
        } catch (IOException e) {
            // The app meets the same failure when it reads the body.
            return classifier.fromStatus(code);
        }
    }

    /** A new token after a refusal, or null when the refresh failed or the call's time ran out first. */
    private AccessToken awaitRefresh(AccessToken rejected) throws InterruptedIOException {
        return retries.await(chain.call(), warden.tokens().tokenAfterRejection(rejected), state.deadline(), "the token refresh");
    }

    static CallState newState(Request request, Deadline deadline) {
        return new CallState(deadline, request.method(), request.url().encodedPath());
    }

    /**
     * The app's own time limit for a call: OkHttp's {@code callTimeout}, which this call started
     * moments ago. Older OkHttp (before 3.12) has none.
     */
    static Deadline deadlineOf(Call call, Warden warden) {
        try {
            long nanos = call.timeout().timeoutNanos();
            return nanos > 0 ? Deadline.after(Duration.ofNanos(nanos), warden.clock()) : Deadline.NONE;
        } catch (LinkageError olderOkHttp) {
            return Deadline.NONE;
        }
    }

    /** One-shot and duplex bodies (and any body on an OkHttp too old to say) are never sent twice. */
    private static boolean isRepeatable(RequestBody body) {
        if (body == null) {
            return true;
        }
        try {
            return !body.isOneShot() && !body.isDuplex();
        } catch (LinkageError olderOkHttp) {
            return false;
        }
    }
}
