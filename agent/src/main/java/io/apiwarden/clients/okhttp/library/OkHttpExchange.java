package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.call.Deadline;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.BlockingWait;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import okhttp3.Call;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * OkHttp's side of one managed {@code execute} call, driven by the blocking face of a
 * {@link CallDriver} inside the agent's interceptor: each attempt goes through the rest of the
 * chain ({@code chain.proceed}), and the driver waits on the caller's thread, ended early when the
 * call is cancelled. (An enqueued call runs on the async face instead: {@link EnqueuedCall}.)
 */
final class OkHttpExchange extends OkHttpRequest implements Exchange.Blocking<Response> {
    private final Warden warden;
    private final Interceptor.Chain chain;
    private final CancelWatch cancels;
    private final CallDriver<Response> driver;

    OkHttpExchange(Warden warden, Interceptor.Chain chain, CancelWatch cancels) {
        super(chain.request());
        this.warden = warden;
        this.chain = chain;
        this.cancels = cancels;
        this.driver = driverFor(request, chain.call(), warden);
    }

    /** Runs the request's attempts to the response the app gets. */
    Response proceed() throws IOException {
        try {
            return driver.run(this);
        } catch (InterruptedException e) {
            // The OkHttp waits never throw it (they raise an InterruptedIOException); kept for the signature.
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted");
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
    public Attempt.Blocking<Response> send(AttemptHeaders headers, Duration timeout, Judge judge) throws IOException {
        Request sent = AttemptRequest.of(request, headers, false, driver);
        Response response = chain.proceed(sent);
        try {
            return new OkHttpAttempt(warden, request, response, AttemptRequest.carriesAgentsToken(sent), false, judge);
        } catch (RuntimeException | Error e) {
            response.close();
            throw e;
        }
    }

    @Override
    public <T> T await(CompletableFuture<T> future, Deadline deadline, String what) throws IOException {
        return BlockingWait.await(future, deadline, cancels.of(chain.call(), false), what);
    }

    @Override
    public void sleep(Duration delay) throws IOException {
        BlockingWait.sleep(warden.scheduler(), delay, cancels.of(chain.call(), true));
    }

    /**
     * The app's own time limit for a call: OkHttp's {@code callTimeout}, which this call started
     * moments ago (or, enqueued, will start for each attempt). Older OkHttp (before 3.12) has none.
     */
    static Duration appTimeout(Call call) {
        try {
            long nanos = call.timeout().timeoutNanos();
            return nanos > 0 ? Duration.ofNanos(nanos) : null;
        } catch (LinkageError olderOkHttp) {
            return null;
        }
    }
}
