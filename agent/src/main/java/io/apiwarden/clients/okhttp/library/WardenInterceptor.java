package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The agent's application interceptor: requests outside the API go on untouched; a copy an
 * {@link EnqueuedCall} sends as one attempt goes out once ({@link EnqueuedAttempt#send}); every
 * other managed request (an {@code execute}) becomes an {@link OkHttpExchange}.
 */
final class WardenInterceptor implements Interceptor {
    private final Wardens wardens;
    private final EnqueuedCalls enqueued;
    private final CancelWatch cancels;

    WardenInterceptor(Wardens wardens, EnqueuedCalls enqueued, CancelWatch cancels) {
        this.wardens = wardens;
        this.enqueued = enqueued;
        this.cancels = cancels;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        EnqueuedAttempt attempt = enqueued.attemptOf(chain.call());
        if (attempt != null) {
            // Already managed, on the engine's asynchronous face: never a second time here.
            return attempt.send(chain);
        }
        Request request = chain.request();
        // A try, not EntryGuard.open and a lambda: the lambda would cost a class spun on the first call.
        OkHttpExchange call;
        try {
            Warden warden = route(wardens, request.url());
            call = warden == null ? null : new OkHttpExchange(warden, chain, cancels);
        } catch (RuntimeException e) {
            call = EntryGuard.failed("okhttp-interceptor", "an OkHttp call", e);
        }
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        return call == null ? chain.proceed(request) : call.proceed();
    }

    /** The Warden of the API {@code url} belongs to, or null. */
    static Warden route(Wardens wardens, HttpUrl url) {
        return wardens.forRequest(url.scheme(), url.host(), url.port(), url.encodedPath());
    }

    static boolean inScope(Warden warden, HttpUrl url) {
        return warden.scope().contains(url.scheme(), url.host(), url.port(), url.encodedPath());
    }

    @Override
    public String toString() {
        return "ApiWardenInterceptor";
    }
}
