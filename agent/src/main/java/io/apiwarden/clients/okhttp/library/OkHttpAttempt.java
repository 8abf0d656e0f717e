package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Decision;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * One attempt's response, classified (a bounded prefix of the body peeked when it must be) and
 * judged where the agent's interceptor got it, for both faces: {@code execute} hands it back up
 * the chain, {@code enqueue} to the attempt's callback, which may see the app's interceptors'
 * version of it ({@link #reachedTheCallback}).
 */
final class OkHttpAttempt extends JudgedAttempt<Response>
        implements Attempt.Blocking<Response>, Attempt.Async<Response>, Judge.BodyPrefix {
    private static final String AUTHORIZATION = "Authorization";

    private final Warden warden;
    /** The response as the agent's interceptor got it: what is judged. */
    private final Response response;
    /** The request as the agent's interceptor got it, before the attempt's headers. */
    private final Request appsRequest;
    /** Whether the attempt carried the agent's token, which the app must not see. */
    private final boolean agentsToken;
    /** The response the app gets; for {@code enqueue}, what the app's interceptors made of {@link #response}. */
    private volatile Response delivered;

    /**
     * Judges {@code response}, weighing whether the app's own {@code Authorization} went on the wire
     * instead of the agent's token ({@code appsAuthorizationWent}).
     */
    OkHttpAttempt(
            Warden warden,
            Request appsRequest,
            Response response,
            boolean agentsToken,
            boolean appsAuthorizationWent,
            Judge judge) {
        this.warden = warden;
        this.appsRequest = appsRequest;
        this.response = response;
        this.delivered = response;
        this.agentsToken = agentsToken;
        judge(judge, this, onTheWire(appsAuthorizationWent));
    }

    /**
     * An enqueued attempt the agent's interceptor never saw (an interceptor of the app's answered
     * before it): not the API's answer, so it goes to the app as it is.
     */
    OkHttpAttempt(Warden warden, Response response) {
        this.warden = warden;
        this.appsRequest = response.request();
        this.response = response;
        this.delivered = response;
        this.agentsToken = false;
        judged(warden.classifier().fromStatus(response.code()), Decision.returnToApp());
    }

    /** What went out, as OkHttp sent it: the policy decides what that means for a resend. */
    private OnTheWire onTheWire(boolean appsAuthorizationWent) {
        if (!WardenInterceptor.inScope(warden, response.request().url())) {
            return OnTheWire.LEFT_THE_API;
        }
        return appsAuthorizationWent ? OnTheWire.APP_AUTHORIZATION : OnTheWire.AS_PREPARED;
    }

    /** The enqueued attempt's response as its callback got it, through the app's interceptors. */
    void reachedTheCallback(Response response) {
        delivered = response;
    }

    @Override
    public byte[] read(int limit) throws IOException {
        ResponseBody body = response.body();
        if (body == null) {
            return new byte[0];
        }
        // A peek reads ahead into the body's buffer and leaves the body whole for the app; read piece by
        // piece, not as peekBody does, which waits for the whole prefix however slowly it comes.
        Duration bound = warden.config().maxErrorBodyWait();
        BodyPeek.Prefix prefix = BodyPeek.read(body.source().peek().inputStream(), limit, BodyPeek.Watch.start(bound));
        if (!prefix.inTime) {
            throw new BodyPeek.TooSlow(bound);
        }
        return prefix.bytes;
    }

    @Override
    public int status() {
        return response.code();
    }

    @Override
    public String protocolVersion() {
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

    @Override
    public Function<String, List<String>> headers() {
        return new ResponseHeaders(response);
    }

    @Override
    public String retryAfter() {
        return response.header("Retry-After");
    }

    @Override
    public Response deliver() {
        Response r = delivered;
        return agentsToken ? forApp(r) : r;
    }

    @Override
    public CompletionStage<Response> deliverAsync() {
        return CompletableFuture.completedFuture(deliver());
    }

    @Override
    public void discard() {
        delivered.close();
    }

    /**
     * The response of an attempt that carried the agent's token, with the request as the app would
     * see it: OkHttp 3 and 4 print a request's headers in {@code toString()}, so the agent's token
     * must not be in {@code response.request()}.
     */
    private Response forApp(Response r) {
        if (r.request().header(AUTHORIZATION) == null) {
            // Taken off a hop outside the API already (TokenFence).
            return r;
        }
        String appsOwn = appsRequest.header(AUTHORIZATION);
        Request.Builder shown = r.request().newBuilder();
        if (appsOwn == null) {
            shown.removeHeader(AUTHORIZATION);
        } else {
            shown.header(AUTHORIZATION, appsOwn);
        }
        return r.newBuilder().request(shown.build()).build();
    }
}
