package io.apiwarden.clients.apache4.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.CallState;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.BodyPeek;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.CarriedFailure;
import io.apiwarden.core.engine.Discard;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.http.Header;
import org.apache.http.HttpEntity;
import org.apache.http.HttpEntityEnclosingRequest;
import org.apache.http.HttpException;
import org.apache.http.HttpMessage;
import org.apache.http.ProtocolVersion;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpExecutionAware;
import org.apache.http.client.methods.HttpRequestWrapper;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.conn.routing.HttpRoute;
import org.apache.http.impl.execchain.ClientExecChain;
import org.apache.http.impl.execchain.RequestAbortedException;
import org.apache.http.protocol.HttpContext;
import org.apache.http.util.EntityUtils;

/**
 * Apache HttpClient 4's side of one managed request, driven by a {@link CallDriver} inside the agent's
 * exec-chain step ({@link WardenExec}): each attempt is a copy of the request sent down the rest of the
 * chain, on the caller's thread, where the driver also waits. The request's {@code abort()} ends a wait
 * at once.
 *
 * <p>The client has no time limit for a whole call: {@code RequestConfig}'s connect, connection-request
 * and socket time-outs bound each connect, lease and read of every attempt as the app set them, not the
 * call, so no deadline is set and the agent's waits are bounded by its own back-off limits.
 */
final class Apache4Exchange implements Exchange.Blocking<CloseableHttpResponse> {
    /** The context attribute naming the attempt on its way down: a second agent step below lets it pass. */
    private static final String ATTEMPT = "io.apiwarden.clients.apache4.library.attempt";
    /** The context attribute holding the last run: the request it ran for, and what it used up. */
    private static final String EARLIER_RUN = "io.apiwarden.clients.apache4.library.earlier-run";

    private final Warden warden;
    private final ClientExecChain next;
    private final HttpRoute route;
    private final HttpRequestWrapper request;
    private final HttpClientContext context;
    private final HttpExecutionAware execAware;
    private final CallDriver<CloseableHttpResponse> driver;

    Apache4Exchange(
            Warden warden,
            URI uri,
            ClientExecChain next,
            HttpRoute route,
            HttpRequestWrapper request,
            HttpClientContext context,
            HttpExecutionAware execAware) {
        this.warden = warden;
        this.next = next;
        this.route = route;
        this.request = request;
        this.context = context;
        this.execAware = execAware;
        this.driver = new CallDriver<>(warden, CallTarget.of(request.getMethod(), uri), null);
        carryOverEarlierRun();
    }

    /** Whether {@code request} is an attempt the agent sent itself, on its way down the chain. */
    static boolean isAttempt(HttpRequestWrapper request, HttpContext context) {
        return context != null && context.getAttribute(ATTEMPT) == request;
    }

    /**
     * The client's {@code RetryExec} (after an I/O failure) and {@code ServiceUnavailableRetryExec} (after
     * a response its strategy retries, a 429 the agent gave up on among them) sit above the agent's step
     * and send the same request object again: that is the same logical call, so it goes on from what the
     * earlier run used up and never gets a second back-off or refresh. A redirect's next hop is a request
     * object of its own, and so is the app's next call with the same context.
     */
    private void carryOverEarlierRun() {
        if (context == null) {
            return;
        }
        Object earlier = context.getAttribute(EARLIER_RUN);
        if (earlier instanceof EarlierRun && ((EarlierRun) earlier).request == request) {
            driver.state().continues(((EarlierRun) earlier).state);
        }
        context.setAttribute(EARLIER_RUN, new EarlierRun(request, driver.state()));
    }

    /** Runs the request's attempts to the response the app gets. */
    CloseableHttpResponse run() throws IOException, HttpException {
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

    private HttpEntity appEntity() {
        return request instanceof HttpEntityEnclosingRequest
                ? ((HttpEntityEnclosingRequest) request).getEntity()
                : null;
    }

    @Override
    public boolean bodyRepeatable() {
        HttpEntity entity = appEntity();
        return entity == null || entity.isRepeatable();
    }

    @Override
    public boolean expectContinue() {
        return appEntity() != null && request.containsHeader("Expect");
    }

    @Override
    public Attempt.Blocking<CloseableHttpResponse> send(AttemptHeaders headers, Duration timeout, Judge judge)
            throws IOException {
        // A copy of the request, the agent's headers on it and never on the app's: the chain above (a
        // redirect) builds its next request from the app's.
        HttpRequestWrapper sent = HttpRequestWrapper.wrap(request.getOriginal(), request.getTarget());
        sent.setHeaders(request.getAllHeaders());
        sent.setURI(request.getURI());
        sent.setProtocolVersion(request.getProtocolVersion());
        headers.forEach(sent::setHeader);
        if (sent instanceof HttpEntityEnclosingRequest) {
            ((HttpEntityEnclosingRequest) sent).setEntity(attemptEntity());
        }
        context.setAttribute(ATTEMPT, sent);
        CloseableHttpResponse response;
        try {
            response = next.execute(route, sent, context, execAware);
        } catch (HttpException e) {
            throw new CarriedFailure(e);
        } finally {
            context.removeAttribute(ATTEMPT);
        }
        try {
            return new Apache4Attempt(response, judge, warden.config().maxErrorBodyWait());
        } catch (RuntimeException | Error e) {
            Discard.closeQuietly(response);
            throw e;
        }
    }

    /**
     * The entity this attempt sends: the app's when the client can send it again; else recorded as the
     * first attempt writes it, or written again from its recording.
     */
    private HttpEntity attemptEntity() {
        HttpEntity app = appEntity();
        if (app == null || app.isRepeatable()) {
            return app;
        }
        HttpEntity recorded = driver.recordedBody(
                app::getContentLength, r -> Entities.replay(app, r), r -> Entities.recording(app, r));
        return recorded == null ? app : recorded;
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
     * The app's {@code abort()} of its request, for one wait: the client's own steps hand the request
     * their current step to cancel (a connection lease, a connection), and the wait is such a step. A
     * request the client cannot abort gives a signal that never comes.
     */
    private BlockingWait.Cancel abort() {
        return BlockingWait.handedTo(
                execAware == null ? null : step -> execAware.setCancellable(step::getAsBoolean),
                () -> new RequestAbortedException("Request aborted"));
    }

    @Override
    public Exception timedOut() {
        // No deadline is ever set (see the class comment).
        return null;
    }

    @Override
    public int status(CloseableHttpResponse response) {
        return response.getStatusLine().getStatusCode();
    }

    @Override
    public Function<String, List<String>> headers(CloseableHttpResponse response) {
        return name -> values(response, name);
    }

    private static List<String> values(HttpMessage message, String name) {
        Header[] headers = message.getHeaders(name);
        List<String> values = new ArrayList<>(headers.length);
        for (Header h : headers) {
            values.add(h.getValue());
        }
        return values;
    }

    /** One attempt's response, classified (a bounded prefix of the body peeked when it must be) and judged. */
    private static final class Apache4Attempt extends JudgedAttempt<CloseableHttpResponse>
            implements Attempt.Blocking<CloseableHttpResponse>, Judge.BodyPrefix {
        private final CloseableHttpResponse response;
        /** The bound on waiting for the prefix ({@link BodyPeek}). */
        private final Duration bodyWait;

        Apache4Attempt(CloseableHttpResponse response, Judge judge, Duration bodyWait) {
            this.response = response;
            this.bodyWait = bodyWait;
            judge(judge, this, OnTheWire.AS_PREPARED);
        }

        @Override
        public byte[] read(int limit) throws IOException {
            HttpEntity entity = response.getEntity();
            InputStream in = entity == null ? null : entity.getContent();
            if (in == null) {
                return new byte[0];
            }
            return BodyPeek.peek(in, limit, bodyWait, whole -> response.setEntity(Entities.peeked(entity, whole)));
        }

        @Override
        public int status() {
            return response.getStatusLine().getStatusCode();
        }

        @Override
        public String protocolVersion() {
            ProtocolVersion version = response.getStatusLine().getProtocolVersion();
            return version != null && version.getMajor() == 1 && version.getMinor() == 0 ? "1.0" : "1.1";
        }

        @Override
        public Function<String, List<String>> headers() {
            return name -> values(response, name);
        }

        @Override
        public String retryAfter() {
            Header h = response.getFirstHeader("Retry-After");
            return h == null ? null : h.getValue();
        }

        @Override
        public CloseableHttpResponse deliver() {
            return response;
        }

        @Override
        public void discard() {
            HttpEntity entity = response.getEntity();
            Discard.drainShortThenClose(
                    () -> entity == null ? 0 : entity.getContentLength(), () -> EntityUtils.consume(entity), response);
        }
    }

    /** What a run of a request used up, kept in the execution's context for a retry of the same request. */
    private static final class EarlierRun {
        final HttpRequestWrapper request;
        final CallState state;

        EarlierRun(HttpRequestWrapper request, CallState state) {
            this.request = request;
            this.state = state;
        }
    }
}
