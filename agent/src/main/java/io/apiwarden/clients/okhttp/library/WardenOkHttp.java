package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import java.util.List;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * OkHttp managed without the agent (library mode), and what the agent's hooks call: the
 * interceptors go on a builder, and {@link #enqueue} and {@link #cancel} stand for the
 * {@code Call} methods the agent weaves, so that an enqueued call waits out a rate limit on the
 * agent's timer rather than a dispatcher thread.
 *
 * <pre>{@code
 * WardenOkHttp okHttp = WardenOkHttp.create(warden);
 * OkHttpClient client = okHttp.manage(new OkHttpClient.Builder()).build();
 * client.newCall(request).execute();            // managed
 * okHttp.enqueue(client.newCall(request), cb);  // managed, no thread held while it waits
 * }</pre>
 */
public final class WardenOkHttp {
    private final Warden warden;
    private final WardenInterceptor interceptor;
    private final TokenFence fence;
    private final AsyncRetries asyncRetries;

    private WardenOkHttp(Warden warden) {
        this.warden = warden;
        this.asyncRetries = new AsyncRetries(warden);
        this.interceptor = new WardenInterceptor(warden, asyncRetries);
        this.fence = new TokenFence(warden);
    }

    /** One per {@link Warden} is enough for every OkHttp client of the same OkHttp. */
    public static WardenOkHttp create(Warden warden) {
        return new WardenOkHttp(warden);
    }

    /**
     * Puts the interceptor last among the application interceptors, so that it sees the request
     * as the app's own interceptors left it (an {@code Authorization} one of them set included),
     * and the token fence last among the network ones. A builder copied with
     * {@code newBuilder()} already holds them: they are moved, not added twice.
     */
    public OkHttpClient.Builder manage(OkHttpClient.Builder builder) {
        List<Interceptor> interceptors = builder.interceptors();
        interceptors.removeIf(i -> i instanceof WardenInterceptor);
        interceptors.add(interceptor);
        List<Interceptor> network = builder.networkInterceptors();
        network.removeIf(i -> i instanceof TokenFence);
        network.add(fence);
        return builder;
    }

    /** {@code call.enqueue(callback)}, with the rate-limit waits of a managed call scheduled, not held. */
    public void enqueue(Call call, Callback callback) {
        call.enqueue(callbackFor(call, callback));
    }

    /** {@code call.cancel()}, which also stops a pending resend of an enqueued call. */
    public void cancel(Call call) {
        call.cancel();
        cancelled(call);
    }

    /** The callback to enqueue {@code call} with: the app's, or one that resends without holding a dispatcher thread. */
    Callback callbackFor(Call call, Callback callback) {
        // An already executed call is about to be refused by OkHttp: nothing to wrap or track.
        if (callback instanceof AsyncRetries.RetryingCallback
                || call.isExecuted()
                || !WardenInterceptor.inScope(warden, call.request().url())) {
            return callback;
        }
        return asyncRetries.wrap(call, callback);
    }

    /** Tells pending resends that the app cancelled {@code call}. */
    void cancelled(Call call) {
        asyncRetries.cancelled(call);
    }
}
