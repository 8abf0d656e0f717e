package io.apiwarden.clients.ktor.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import io.apiwarden.core.time.DelayScheduler;
import io.ktor.client.engine.HttpClientEngine;
import io.ktor.client.plugins.HttpTimeoutCapability;
import io.ktor.client.plugins.HttpTimeoutConfig;
import io.ktor.client.request.HttpRequestData;
import io.ktor.client.request.HttpResponseData;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import kotlin.ResultKt;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.ContinuationInterceptor;
import kotlin.coroutines.CoroutineContext;
import kotlin.coroutines.SafeContinuation;
import kotlin.coroutines.intrinsics.IntrinsicsKt;
import kotlinx.coroutines.CoroutineDispatcher;
import kotlinx.coroutines.DisposableHandle;
import kotlinx.coroutines.ExecutorsKt;
import kotlinx.coroutines.Job;

/**
 * Ktor's client with its CIO engine managed without the agent (library mode), and what the agent's hook calls.
 *
 * <pre>{@code
 * HttpClient client = HttpClientKt.HttpClient(WardenKtor.create(warden).manage(CIO.INSTANCE.create(c -> Unit.INSTANCE)), ...);
 * }</pre>
 *
 * <p>The agent's place is the engine's {@code execute(HttpRequestData)}: every request a Ktor client sends reaches
 * its engine there, once per redirect hop and per retry of Ktor's own plugins, with the plugins' work done. Only the
 * CIO engine is managed: Ktor's Java, OkHttp and Apache engines send through clients the agent manages already, so
 * a call through them is managed there, never twice.
 */
public final class WardenKtor {
    /** The CIO engine's class, internal to Ktor: the one engine this manages. */
    static final String CIO_ENGINE = "io.ktor.client.engine.cio.CIOEngine";

    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;
    /** Where waits go; null for the timer of each call's Warden. */
    private final DelayScheduler timer;

    private WardenKtor(Wardens wardens, DelayScheduler timer) {
        this.wardens = wardens;
        this.timer = timer;
    }

    /** Waits on the warden's timer (a thread of the agent's, never one of Ktor's). */
    public static WardenKtor create(Warden warden) {
        return new WardenKtor(warden, warden.scheduler());
    }

    /** Waits on {@code timer}. */
    public static WardenKtor create(Warden warden, DelayScheduler timer) {
        return new WardenKtor(warden, timer);
    }

    /**
     * For the APIs {@code wardens} routes to (the agent's router): each call gets its API's Warden, and waits on
     * that Warden's timer.
     */
    public static WardenKtor create(Wardens wardens) {
        return new WardenKtor(wardens, null);
    }

    /**
     * The CIO engine {@code engine}, managed: pass it to {@code HttpClient(engine, ...)}. It is the app's to close,
     * as an engine given to a client is.
     *
     * @throws IllegalArgumentException when {@code engine} is not Ktor's CIO engine: the others send through clients
     *     managed on their own (the JDK's, OkHttp, Apache HttpClient 5)
     */
    public HttpClientEngine manage(HttpClientEngine engine) {
        if (!engine.getClass().getName().equals(CIO_ENGINE)) {
            throw new IllegalArgumentException(
                    "not Ktor's CIO engine: " + engine.getClass().getName()
                            + "; Ktor's Java, OkHttp and Apache5 engines are managed through their own clients"
                            + " (WardenHttpClient, WardenOkHttp, WardenApacheHttp)");
        }
        return new ManagedEngine(engine, this);
    }

    /**
     * One call of {@code engine.execute(request)} from the coroutine of {@code continuation}: what that call returns
     * (Kotlin's {@code COROUTINE_SUSPENDED}, and {@code continuation} resumed once with the final response or
     * failure), or null when the request is not the agent's to manage (outside the API, an attempt of the agent's
     * own, a resumption of the engine's suspended code) or cannot be: then the engine goes on as without the agent.
     */
    Object execute(
            HttpClientEngine engine, HttpRequestData request, Continuation<? super HttpResponseData> continuation) {
        if (continuation instanceof AttemptCall || isTheEnginesOwn(engine, continuation)) {
            return null;
        }
        URI uri = uri(request);
        Warden warden = uri == null ? null : wardens.forRequest(uri);
        if (warden == null) {
            return null;
        }
        DelayScheduler waits = timer != null ? timer : warden.scheduler();
        CoroutineContext context = continuation.getContext();
        KtorExchange exchange = EntryGuard.open(
                "ktor-call",
                "a Ktor call",
                () -> new KtorExchange(
                        warden, engine, request, uri, context, timeLimit(request), waits, completions(context)));
        if (exchange == null) {
            return null;
        }
        SafeContinuation<HttpResponseData> resumed = new SafeContinuation<>(IntrinsicsKt.intercepted(continuation));
        CompletableFuture<HttpResponseData> call = exchange.run();
        Job job = context.get(Job.Key);
        if (job != null) {
            // The coroutine's cancel (the app's, Ktor's time-out) cancels the call: its wait, its attempt in flight.
            // Called when the job starts cancelling: it cannot end while its coroutine is suspended here.
            DisposableHandle onCancel = job.invokeOnCompletion(true, true, cause -> {
                call.cancel(false);
                return kotlin.Unit.INSTANCE;
            });
            call.whenComplete((r, e) -> onCancel.dispose());
        }
        call.whenComplete((response, failure) ->
                resumed.resumeWith(failure == null ? response : ResultKt.createFailure(unwrapped(failure))));
        return resumed.getOrThrow();
    }

    /**
     * Kotlin's compiled suspend function calls itself again to resume, with its own state machine (a class nested in
     * the engine's) as the continuation: that is the engine's code going on, not a new request.
     */
    private static boolean isTheEnginesOwn(HttpClientEngine engine, Continuation<?> continuation) {
        return continuation.getClass().getName().startsWith(engine.getClass().getName() + "$");
    }

    /** The request's URL as a URI with a host, or null. */
    private static URI uri(HttpRequestData request) {
        try {
            URI uri = URI.create(request.getUrl().toString());
            return uri.getHost() != null ? uri : null;
        } catch (IllegalArgumentException e) {
            // Not a URI the JDK reads (Ktor is more lenient): not the API's.
            return null;
        }
    }

    /** The request's time-out of Ktor's {@code HttpTimeout}, which it enforces above the engine on the whole call. */
    private static Duration timeLimit(HttpRequestData request) {
        HttpTimeoutConfig timeouts = request.getCapabilityOrNull(HttpTimeoutCapability.INSTANCE);
        Long millis = timeouts == null ? null : timeouts.getRequestTimeoutMillis();
        return millis == null || millis <= 0 || millis == Long.MAX_VALUE ? null : Duration.ofMillis(millis);
    }

    /** Ktor's dispatcher of the call, where the engine itself would go on; the common pool if it has none. */
    private static Executor completions(CoroutineContext context) {
        ContinuationInterceptor interceptor = context.get(ContinuationInterceptor.Key);
        return interceptor instanceof CoroutineDispatcher
                ? ExecutorsKt.asExecutor((CoroutineDispatcher) interceptor)
                : ForkJoinPool.commonPool();
    }

    private static Throwable unwrapped(Throwable failure) {
        Throwable t = failure;
        while (t instanceof java.util.concurrent.CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
