package io.apiwarden.clients.ktor.library;

import io.apiwarden.core.call.OnTheWire;
import io.apiwarden.core.engine.Attempt;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.engine.JudgedAttempt;
import io.ktor.client.request.HttpResponseData;
import io.ktor.utils.io.ByteReadChannel;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.CompletableJob;

/**
 * One attempt's response as the CIO engine gave it, classified and judged. Its connection and body reader live in the
 * attempt's own job ({@link AttemptCall}): a discarded response is let go by cancelling its body and that job; the
 * one the app gets is handed back under the call's own context, so that Ktor ends it as it ends any call.
 */
final class KtorAttempt extends JudgedAttempt<HttpResponseData>
        implements Attempt.Async<HttpResponseData>, Judge.BodyPrefix {
    private final HttpResponseData response;
    private final CompletableJob job;
    private final CoroutineContext callContext;

    KtorAttempt(HttpResponseData response, CompletableJob job, CoroutineContext callContext, Judge judge) {
        this.response = response;
        this.job = job;
        this.callContext = callContext;
        judge(judge, this, OnTheWire.AS_PREPARED);
    }

    /**
     * Classification is by status and headers: the body is a byte channel that can be read only by suspending, so it
     * cannot be peeked without either blocking one of Ktor's threads or consuming it. The spec's errors are a 401 and
     * a 429, which need no body.
     */
    @Override
    public byte[] read(int limit) throws IOException {
        throw new IOException("a Ktor response body is a channel left for the app");
    }

    @Override
    public int status() {
        return response.getStatusCode().getValue();
    }

    @Override
    public String protocolVersion() {
        int major = response.getVersion().getMajor();
        return major >= 2 ? "2" : major + "." + response.getVersion().getMinor();
    }

    @Override
    public Function<String, List<String>> headers() {
        return headersOf(response);
    }

    static Function<String, List<String>> headersOf(HttpResponseData response) {
        return name -> {
            List<String> values = response.getHeaders().getAll(name);
            return values == null ? List.of() : values;
        };
    }

    @Override
    public String retryAfter() {
        return response.getHeaders().get("Retry-After");
    }

    /**
     * The response under the call's context, its body and connection still the attempt's: the attempt's job ends
     * when the call's does (the app read or dropped the response, or the call was cancelled).
     */
    @Override
    public CompletionStage<HttpResponseData> deliverAsync() {
        kotlinx.coroutines.Job call = callContext.get(kotlinx.coroutines.Job.Key);
        if (call != null) {
            call.invokeOnCompletion(cause -> {
                if (cause == null) {
                    job.complete();
                } else {
                    job.cancel(null);
                }
                return kotlin.Unit.INSTANCE;
            });
        }
        return CompletableFuture.completedFuture(new HttpResponseData(
                response.getStatusCode(),
                response.getRequestTime(),
                response.getHeaders(),
                response.getVersion(),
                response.getBody(),
                callContext));
    }

    /** Cancels the body (its reader stops) and the attempt's job, which closes and releases its connection. */
    @Override
    public void discard() {
        try {
            Object body = response.getBody();
            if (body instanceof ByteReadChannel) {
                ((ByteReadChannel) body).cancel(null);
            }
        } catch (RuntimeException e) {
            // The job's cancel below frees the connection all the same.
        }
        job.cancel(null);
    }
}
