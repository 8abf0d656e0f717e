package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * OkHttp's side of one managed request, driven by a {@link CallDriver} inside the agent's
 * interceptor: each attempt goes through the rest of the chain ({@code chain.proceed}).
 *
 * <p>Inside {@code execute()} the driver waits here, on the caller's thread, and the wait ends
 * early when the call is cancelled. Inside {@code enqueue()} ({@code async != null}) a wait would
 * hold a dispatcher thread, so the response goes back to {@link AsyncRetries}, which schedules a
 * copy of the call instead: OkHttp only uses the driver's blocking face, once per copy.
 */
final class OkHttpExchange implements Exchange.Blocking<Response> {
    private static final String AUTHORIZATION = "Authorization";

    private final Warden warden;
    private final Interceptor.Chain chain;
    private final AsyncRetries.State async;
    private final AsyncRetries retries;
    private final Request request;
    private CallDriver<Response> driver;

    OkHttpExchange(Warden warden, Interceptor.Chain chain, AsyncRetries.State async, AsyncRetries retries) {
        this.warden = warden;
        this.chain = chain;
        this.async = async;
        this.retries = retries;
        this.request = chain.request();
    }

    /** Runs the request's attempts to the response the app gets. */
    Response proceed() throws IOException {
        try {
            if (async != null) {
                // An enqueued call's span spans its copies: AsyncRetries ends it when the app is called back.
                async.resendAfter(null, null);
                driver = async.driver;
                return driver.attempts(this);
            }
            driver = driverFor(request, chain.call(), warden);
            return driver.run(this);
        } catch (InterruptedException e) {
            // The OkHttp waits never throw it (they raise an InterruptedIOException); kept for the signature.
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted");
        }
    }

    /** The driver of a new logical call of {@code request}, made with {@code call}. */
    static CallDriver<Response> driverFor(Request request, Call call, Warden warden) {
        HttpUrl url = request.url();
        CallTarget target = new CallTarget(
                request.method(), url.toString(), url.scheme(), url.host(), url.port(), url.encodedPath());
        return new CallDriver<>(warden, target, appTimeout(call));
    }

    @Override
    public boolean hasHeader(String name) {
        return request.header(name) != null;
    }

    @Override
    public boolean bodyRepeatable() {
        return isRepeatable(request.body());
    }

    @Override
    public boolean expectContinue() {
        return false;
    }

    @Override
    public Attempt.Blocking<Response> send(AttemptHeaders headers, Duration timeout, Judge judge) throws IOException {
        Request.Builder sent = request.newBuilder();
        RequestBody body = attemptBody();
        if (body != null) {
            sent.method(request.method(), body);
        }
        headers.forEach(sent::header);
        boolean agentsToken = headers.get(AUTHORIZATION) != null;
        if (agentsToken) {
            // Marks the agent's token, so the network interceptor takes it off a hop outside the API.
            sent.tag(TokenFence.AgentToken.class, TokenFence.AgentToken.MARK);
        }
        Response response = chain.proceed(sent.build());
        try {
            return new OkHttpAttempt(response, agentsToken, judge);
        } catch (RuntimeException | Error e) {
            response.close();
            throw e;
        }
    }

    @Override
    public <T> T await(CompletableFuture<T> future, Deadline deadline, String what) throws IOException {
        return retries.await(chain.call(), future, deadline, what);
    }

    @Override
    public void sleep(Duration delay) throws IOException {
        retries.waitFor(chain.call(), delay);
    }

    @Override
    public Response handOffWait(Attempt.Blocking<Response> attempt, Duration delay) {
        if (async == null) {
            return null;
        }
        Response response = ((OkHttpAttempt) attempt).response;
        async.resendAfter(delay, response);
        return response;
    }

    @Override
    public Response handOffGate() {
        if (async == null) {
            return null;
        }
        // Never seen by the app: the wrapped callback takes it back, and enqueues a copy of the call
        // once the gate lets it go, so no dispatcher thread waits at the gate.
        Response placeholder = new Response.Builder()
                .request(request)
                .protocol(Protocol.HTTP_1_1)
                .code(429)
                .message("waiting at the rate-limit gate")
                // OkHttp 3 and 4 refuse a response without a body; this form of create is in 3, 4 and 5.
                .body(emptyBody())
                .build();
        async.resendAfter(Duration.ZERO, placeholder);
        return placeholder;
    }

    // Deprecated since OkHttp 4 for Kotlin's toResponseBody, which OkHttp 3 lacks; the agent runs on the app's
    // OkHttp, 3, 4 or 5, and this is the one form all three have.
    @SuppressWarnings("deprecation")
    private static ResponseBody emptyBody() {
        return ResponseBody.create(null, new byte[0]);
    }

    @Override
    public Exception timedOut() {
        // OkHttp's own callTimeout has cancelled the call already, and fails it as without the agent.
        return null;
    }

    @Override
    public int status(Response response) {
        return response.code();
    }

    @Override
    public Function<String, List<String>> headers(Response response) {
        return response::headers;
    }

    /**
     * The body of this attempt when it is not the app's own: a one-shot body recorded as it is
     * sent, or sent again from its recording (an {@code enqueue} copy's too: the driver, and its
     * recording, span the copies). Null for a body OkHttp can send again, which is never copied.
     */
    private RequestBody attemptBody() {
        RequestBody app = request.body();
        try {
            if (app == null || !app.isOneShot() || app.isDuplex()) {
                // A duplex body is written while the response is read: never the agent's to resend.
                return null;
            }
            RecordedBody recording = driver.recordBody(app.contentLength());
            if (recording == null) {
                return null;
            }
            return recording.isComplete()
                    ? RecordingBodies.replay(app, recording)
                    : RecordingBodies.recording(app, recording);
        } catch (IOException | RuntimeException | LinkageError e) {
            // An OkHttp before 3.14 has no one-shot bodies to record; anything else: sent as without the agent.
            if (!(e instanceof LinkageError)) {
                AgentLog.once(
                        AgentLog.Level.WARN, "body-recording", "a request body could not be recorded for a resend", e);
            }
            return null;
        }
    }

    /** One attempt's response, classified (a bounded prefix of the body peeked when it must be) and judged. */
    private final class OkHttpAttempt extends JudgedAttempt<Response>
            implements Attempt.Blocking<Response>, Judge.BodyPrefix {
        final Response response;
        /** Whether the driver put the agent's token on this attempt, which the app must not see. */
        private final boolean agentsToken;

        OkHttpAttempt(Response response, boolean agentsToken, Judge judge) {
            this.response = response;
            this.agentsToken = agentsToken;
            judge(
                    judge,
                    this,
                    WardenInterceptor.inScope(warden, response.request().url())
                            ? OnTheWire.AS_PREPARED
                            : OnTheWire.LEFT_THE_API);
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
            BodyPeek.Prefix prefix =
                    BodyPeek.read(body.source().peek().inputStream(), limit, BodyPeek.Watch.start(bound));
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
            return response::headers;
        }

        @Override
        public String retryAfter() {
            return response.header("Retry-After");
        }

        @Override
        public Response deliver() {
            return agentsToken ? forApp(response) : response;
        }

        @Override
        public void discard() {
            response.close();
        }
    }

    /**
     * The response of an attempt that carried the agent's token, with the request as the app would
     * see it: OkHttp 3 and 4 print a request's headers in {@code toString()}, so the agent's token
     * must not be in {@code response.request()}.
     */
    private Response forApp(Response response) {
        if (response.request().header(AUTHORIZATION) == null) {
            // Taken off a hop outside the API already (TokenFence).
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

    /**
     * The app's own time limit for a call: OkHttp's {@code callTimeout}, which this call started
     * moments ago. Older OkHttp (before 3.12) has none.
     */
    static Duration appTimeout(Call call) {
        try {
            long nanos = call.timeout().timeoutNanos();
            return nanos > 0 ? Duration.ofNanos(nanos) : null;
        } catch (LinkageError olderOkHttp) {
            return null;
        }
    }

    /**
     * One-shot and duplex bodies (and any body on an OkHttp too old to say) cannot be sent twice
     * as they are; a one-shot one may have been recorded ({@link #attemptBody}).
     */
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
