package io.apiwarden.clients.ktor.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.CallDriver;
import io.apiwarden.core.engine.CallTarget;
import io.apiwarden.core.engine.Exchange;
import io.apiwarden.core.engine.Judge;
import io.apiwarden.core.time.DelayScheduler;
import io.ktor.client.engine.HttpClientEngine;
import io.ktor.client.engine.KtorCallContextElement;
import io.ktor.client.request.HttpRequestData;
import io.ktor.client.request.HttpResponseData;
import io.ktor.http.HeadersBuilder;
import io.ktor.http.content.OutgoingContent;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.intrinsics.IntrinsicsKt;
import kotlinx.coroutines.CompletableJob;
import kotlinx.coroutines.Job;
import kotlinx.coroutines.JobKt;

/**
 * The CIO engine's side of one managed call, driven by the {@link CallDriver}'s asynchronous face: an attempt is one
 * call of the real engine's {@code execute} with a copy of the call's {@link HttpRequestData} carrying the attempt's
 * headers. Ktor's plugins (redirects, time-outs, retries, content negotiation) are above the engine: each redirect
 * hop reaches the engine as a call of its own, in scope or not.
 *
 * <p>Each attempt runs in a job of its own, beside the call's: CIO ties a connection and the response's body reader
 * to the job of the call context it is given, so a discarded response frees its connection at once, and only the
 * response the app gets is handed back under the call's own context ({@link KtorAttempt#deliverAsync}).
 */
final class KtorExchange implements Exchange.Async<HttpResponseData> {
    private final HttpClientEngine engine;
    private final HttpRequestData request;
    /** The context of the coroutine that called {@code execute}: Ktor's dispatcher, the call's job and context. */
    private final CoroutineContext context;

    private final CoroutineContext callContext;
    private final DelayScheduler timer;
    private final Executor completions;
    private final CallDriver<HttpResponseData> driver;

    KtorExchange(
            Warden warden,
            HttpClientEngine engine,
            HttpRequestData request,
            URI uri,
            CoroutineContext context,
            Duration appTimeout,
            DelayScheduler timer,
            Executor completions) {
        this.engine = engine;
        this.request = request;
        this.context = context;
        KtorCallContextElement call = context.get(KtorCallContextElement.Companion);
        if (call == null) {
            throw new IllegalStateException("no Ktor call context: the engine was called outside a Ktor client");
        }
        this.callContext = call.getCallContext();
        this.timer = timer;
        this.completions = completions;
        this.driver = new CallDriver<>(warden, CallTarget.of(request.getMethod().getValue(), uri), appTimeout);
    }

    CompletableFuture<HttpResponseData> run() {
        return driver.runAsync(this);
    }

    @Override
    public boolean hasHeader(String name) {
        return request.getHeaders().contains(name)
                || request.getBody().getHeaders().contains(name);
    }

    /** Bytes (a string, an array) are written anew for every send; a channel or a writer is consumed by the first. */
    @Override
    public boolean bodyRepeatable() {
        OutgoingContent body = request.getBody();
        return body instanceof OutgoingContent.NoContent || body instanceof OutgoingContent.ByteArrayContent;
    }

    @Override
    public boolean expectContinue() {
        String expect = request.getHeaders().get("Expect");
        return expect != null && expect.toLowerCase(Locale.ROOT).equals("100-continue");
    }

    /** Ktor's {@code HttpTimeout} cancels the call itself when its request time-out runs out. */
    @Override
    public Exception timedOut() {
        return null;
    }

    @Override
    public int status(HttpResponseData response) {
        return response.getStatusCode().getValue();
    }

    @Override
    public Function<String, List<String>> headers(HttpResponseData response) {
        return KtorAttempt.headersOf(response);
    }

    @Override
    public DelayScheduler timer() {
        return timer;
    }

    @Override
    public Executor completions() {
        return completions;
    }

    /**
     * Calls the real engine with the attempt's request, in a job of its own whose parent is none: the call's job
     * waits for its children, and the delivered attempt's job ends only when the call's does. Cancelling the call
     * reaches the attempt through the cancel of its future. Ktor's time-outs stay the engine's, per attempt.
     */
    @Override
    public CompletableFuture<KtorAttempt> sendAsync(AttemptHeaders headers, Duration timeout, Judge judge) {
        CompletableJob job = JobKt.Job((Job) null);
        CoroutineContext attemptCall = callContext.plus(job);
        CoroutineContext attemptContext = context.plus(job).plus(new KtorCallContextElement(attemptCall));
        AttemptCall attempt = new AttemptCall(attemptContext, job, callContext, judge);
        Object returned;
        try {
            returned = engine.execute(withHeaders(headers), attempt);
        } catch (RuntimeException e) {
            job.cancel(null);
            throw e;
        } catch (Exception e) {
            // Kotlin code raises checked exceptions without declaring them: the attempt failed as sent.
            job.cancel(null);
            attempt.completeExceptionally(e);
            return attempt;
        }
        if (returned != IntrinsicsKt.getCOROUTINE_SUSPENDED()) {
            attempt.resumeWith(returned);
        }
        return attempt;
    }

    private HttpRequestData withHeaders(AttemptHeaders headers) {
        HeadersBuilder builder = new HeadersBuilder();
        builder.appendAll(request.getHeaders());
        headers.forEach((name, value) -> {
            builder.remove(name);
            builder.append(name, value);
        });
        return new HttpRequestData(
                request.getUrl(),
                request.getMethod(),
                builder.build(),
                request.getBody(),
                request.getExecutionContext(),
                request.getAttributes());
    }
}
