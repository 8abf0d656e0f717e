package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CarriedFailure;
import io.apiwarden.core.engine.Discard;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.core5.concurrent.CancellableDependency;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.message.BasicClassicHttpRequest;

/**
 * Apache HttpClient 5's classic side of one managed request, driven by a {@link CallDriver} inside
 * the agent's exec-chain handler: each attempt is a copy of the request sent through the rest of
 * the chain ({@code chain.proceed}), on the caller's thread, where the driver also waits. Cancelling
 * the app's request ({@code HttpUriRequestBase.cancel()}) ends a wait at once.
 *
 * <p>The handler sits below the client's {@code RedirectExec}: every hop of a redirect reaches it
 * as a request of its own, and only a hop to the API ever gets the agent's header.
 */
final class ClassicExchange implements Exchange.Blocking<ClassicHttpResponse> {
    private final Warden warden;
    private final ClassicHttpRequest request;
    private final ExecChain.Scope scope;
    private final ExecChain chain;
    private final CallDriver<ClassicHttpResponse> driver;

    ClassicExchange(Warden warden, ClassicHttpRequest request, Target target, ExecChain.Scope scope, ExecChain chain) {
        this.warden = warden;
        this.request = request;
        this.scope = scope;
        this.chain = chain;
        // The client has no time limit for a whole call: its time-outs bound each connect and read,
        // and apply to every attempt as the app set them.
        this.driver = new CallDriver<>(warden, target.callTarget(request.getMethod()), null);
        // The client's own retry of a 429 the agent gave up on is this call again, not a new one.
        EarlierRun.carryOver(
                scope.clientContext,
                EarlierRun.key(scope.exchangeId, request.getMethod(), target.url()),
                driver.state());
    }

    /**
     * Runs the request's attempts to the response the app gets. The client's own retry handler sits
     * above the agent's and may send the request again (a 429 the agent gave up on, an I/O failure):
     * that is the same logical call, so it goes on from what the earlier run used up, kept in the
     * execution's context, and never gets a second back-off or refresh.
     */
    ClassicHttpResponse run() throws IOException, HttpException {
        try {
            return driver.runWithIoFailures(this);
        } catch (CarriedFailure e) {
            throw e.carried(HttpException.class);
        }
    }

    @Override
    public boolean hasHeader(String name) {
        return request.containsHeader(name);
    }

    @Override
    public boolean bodyRepeatable() {
        HttpEntity entity = request.getEntity();
        return entity == null || entity.isRepeatable();
    }

    @Override
    public boolean expectContinue() {
        return request.getEntity() != null && request.containsHeader("Expect");
    }

    @Override
    public Attempt.Blocking<ClassicHttpResponse> send(AttemptHeaders headers, Duration timeout, Judge judge)
            throws IOException {
        AttemptRequest sent = new AttemptRequest(request);
        headers.forEach(sent::setHeader);
        HttpEntity body = attemptEntity();
        if (body != null) {
            sent.setEntity(body);
        }
        ClassicHttpResponse response;
        try {
            response = chain.proceed(sent, scope);
        } catch (HttpException e) {
            throw new CarriedFailure(e);
        }
        try {
            return new ClassicAttempt(response, judge, warden.config().maxErrorBodyWait());
        } catch (RuntimeException | Error e) {
            Discard.closeQuietly(response);
            throw e;
        }
    }

    /**
     * The entity of this attempt when it is not the app's own: one the client cannot send twice,
     * recorded as the first attempt writes it, or written again from its recording. Null for an
     * entity the client can send again, which is never copied.
     */
    private HttpEntity attemptEntity() {
        HttpEntity app = request.getEntity();
        if (app == null || app.isRepeatable()) {
            return null;
        }
        return driver.recordedBody(
                app::getContentLength, r -> RecordingEntities.replay(app, r), r -> RecordingEntities.recording(app, r));
    }

    @Override
    public <T> T await(CompletableFuture<T> future, Deadline deadline, String what) throws IOException {
        return BlockingWait.await(future, deadline, abort(), what);
    }

    @Override
    public void sleep(Duration delay) throws IOException {
        BlockingWait.sleep(warden.scheduler(), delay, abort());
    }

    /**
     * The app's cancel of its request, for one wait: the client's own steps hand the request their
     * current step to cancel (a connection lease, an exchange), and the wait is such a step. A request the
     * client cannot cancel (not an {@code HttpUriRequestBase}) gives a signal that never comes.
     */
    private BlockingWait.Cancel abort() {
        return BlockingWait.handedTo(
                scope.originalRequest instanceof CancellableDependency
                        ? step -> ((CancellableDependency) scope.originalRequest).setDependency(step::getAsBoolean)
                        : null,
                () -> new RequestFailedException("Request aborted"));
    }

    @Override
    public Exception timedOut() {
        // No deadline is ever set (see the constructor).
        return null;
    }

    @Override
    public int status(ClassicHttpResponse response) {
        return response.getCode();
    }

    @Override
    public Function<String, List<String>> headers(ClassicHttpResponse response) {
        return name -> Messages.values(response, name);
    }

    /** One attempt's response, classified (a bounded prefix of the body peeked when it must be) and judged. */
    private static final class ClassicAttempt extends JudgedAttempt<ClassicHttpResponse>
            implements Attempt.Blocking<ClassicHttpResponse>, Judge.BodyPrefix {
        private final ClassicHttpResponse response;
        /** The bound on waiting for the prefix ({@link BodyPeek}). */
        private final Duration bodyWait;

        ClassicAttempt(ClassicHttpResponse response, Judge judge, Duration bodyWait) {
            this.response = response;
            this.bodyWait = bodyWait;
            judge(judge, this, OnTheWire.AS_PREPARED);
        }

        @Override
        public byte[] read(int limit) throws IOException {
            HttpEntity entity = response.getEntity();
            if (entity == null) {
                return new byte[0];
            }
            InputStream in = entity.getContent();
            if (in == null) {
                return new byte[0];
            }
            return BodyPeek.peek(in, limit, bodyWait, whole -> response.setEntity(new PeekedEntity(entity, whole)));
        }

        @Override
        public int status() {
            return response.getCode();
        }

        @Override
        public String protocolVersion() {
            return Messages.protocolVersion(response.getVersion());
        }

        @Override
        public Function<String, List<String>> headers() {
            return name -> Messages.values(response, name);
        }

        @Override
        public String retryAfter() {
            return Messages.first(response, "Retry-After");
        }

        @Override
        public ClassicHttpResponse deliver() {
            return response;
        }

        @Override
        public void discard() {
            HttpEntity entity = response.getEntity();
            Discard.drainShortThenClose(
                    () -> entity == null ? 0 : entity.getContentLength(), () -> EntityUtils.consume(entity), response);
        }
    }

    /**
     * The copy of the app's request one attempt sends: the agent's headers go on it, never on the
     * app's own request. Its type also tells the agent's second handler, lower in the chain, that
     * the request is managed already (see {@link WardenApacheHttp#manage}).
     */
    static final class AttemptRequest extends BasicClassicHttpRequest {
        private static final long serialVersionUID = 1L;

        AttemptRequest(ClassicHttpRequest app) {
            super(app.getMethod(), app.getScheme(), app.getAuthority(), app.getPath());
            setVersion(app.getVersion());
            setHeaders(app.getHeaders());
            setEntity(app.getEntity());
        }
    }
}
