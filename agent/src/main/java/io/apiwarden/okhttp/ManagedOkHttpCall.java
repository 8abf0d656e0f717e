package io.apiwarden.okhttp;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.ResponseClassifier;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.token.AccessToken;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

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

    ManagedOkHttpCall(Warden warden, Interceptor.Chain chain, AsyncRetries.State async, AsyncRetries retries) {
        this.warden = warden;
        this.chain = chain;
        this.async = async;
        this.retries = retries;
        this.request = chain.request();
        this.state = async != null ? async.callState : new CallState();
        this.repeatable = isRepeatable(request.body());
        this.agentOwnsAuthorization = warden.replacesAppAuthorization() || request.header(AUTHORIZATION) == null;
    }

    Response proceed() throws IOException {
        AccessToken token = await(warden.tokens().tokenForRequest());
        while (true) {
            Request sent = agentOwnsAuthorization && token != null
                    ? request.newBuilder().header(AUTHORIZATION, token.authorizationHeader()).build()
                    : request;
            Response response = chain.proceed(sent);
            HttpUrl landed = response.request().url();
            if (!warden.scope().contains(landed.scheme(), landed.host(), landed.port(), landed.encodedPath())) {
                return response;
            }
            Decision decision = warden.resendPolicy().decide(state, classify(response), response.header("Retry-After"),
                    repeatable, agentOwnsAuthorization, warden.tokens().canRefresh());
            switch (decision.action()) {
                case REFRESH_AND_RESEND:
                    AccessToken fresh = awaitRefresh(token);
                    if (fresh == null) {
                        return response;
                    }
                    response.close();
                    token = fresh;
                    break;
                case WAIT_AND_RESEND:
                    if (async != null) {
                        async.resendAfter(decision.delay());
                        return response;
                    }
                    response.close();
                    retries.waitFor(chain.call(), decision.delay());
                    break;
                default:
                    return response;
            }
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

    private AccessToken awaitRefresh(AccessToken rejected) throws InterruptedIOException {
        try {
            return warden.tokens().tokenAfterRejection(rejected).get();
        } catch (ExecutionException refreshFailed) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the token was refreshed");
        }
    }

    private AccessToken await(CompletableFuture<AccessToken> token) throws InterruptedIOException {
        try {
            return token.get();
        } catch (ExecutionException e) {
            return warden.tokens().current();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a token");
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
