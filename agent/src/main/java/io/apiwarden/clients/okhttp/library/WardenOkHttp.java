package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.util.Iterator;
import java.util.List;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

/**
 * OkHttp managed without the agent (library mode), and what the agent's hooks call: the
 * interceptors go on a builder, and {@link #enqueue} and {@link #cancel} stand for the
 * {@code Call} methods the agent weaves, so that an enqueued call to the API runs on the engine's
 * asynchronous face ({@link EnqueuedCall}): its waits on the agent's timer, never on a dispatcher thread.
 *
 * <pre>{@code
 * WardenOkHttp okHttp = WardenOkHttp.create(warden);
 * OkHttpClient client = okHttp.manage(new OkHttpClient.Builder()).build();
 * client.newCall(request).execute();            // managed
 * okHttp.enqueue(client.newCall(request), cb);  // managed, no thread held while it waits
 * }</pre>
 */
public final class WardenOkHttp {
    private final WardenInterceptor interceptor;
    private final TokenFence fence;
    private final EnqueuedCalls enqueued;
    private final CancelWatch cancels = new CancelWatch();

    private WardenOkHttp(Wardens wardens) {
        this.enqueued = new EnqueuedCalls(wardens);
        this.interceptor = new WardenInterceptor(wardens, enqueued, cancels);
        this.fence = new TokenFence();
    }

    /** One per {@link Warden} is enough for every OkHttp client of the same OkHttp. */
    public static WardenOkHttp create(Warden warden) {
        return new WardenOkHttp(warden);
    }

    /** For the APIs {@code wardens} routes to (the agent's router): each call gets its API's Warden. */
    public static WardenOkHttp create(Wardens wardens) {
        return new WardenOkHttp(wardens);
    }

    /**
     * Puts the interceptor last among the application interceptors, so that it sees the request
     * as the app's own interceptors left it (an {@code Authorization} one of them set included),
     * and the token fence last among the network ones. A builder copied with
     * {@code newBuilder()} already holds them: they are moved, not added twice.
     */
    public OkHttpClient.Builder manage(OkHttpClient.Builder builder) {
        List<Interceptor> interceptors = builder.interceptors();
        // Loops, not removeIf and lambdas: the first client runs this, and a lambda costs a spun class.
        for (Iterator<Interceptor> it = interceptors.iterator(); it.hasNext(); ) {
            if (it.next() instanceof WardenInterceptor) {
                it.remove();
            }
        }
        interceptors.add(interceptor);
        List<Interceptor> network = builder.networkInterceptors();
        for (Iterator<Interceptor> it = network.iterator(); it.hasNext(); ) {
            if (it.next() instanceof TokenFence) {
                it.remove();
            }
        }
        network.add(fence);
        return builder;
    }

    /** {@code call.enqueue(callback)}, a call to the API run by the agent without holding a dispatcher thread while it waits. */
    public void enqueue(Call call, Callback callback) {
        if (!take(call, callback)) {
            call.enqueue(callback);
        }
    }

    /** {@code call.cancel()}, which also ends a wait of the call at once. */
    public void cancel(Call call) {
        call.cancel();
        cancelled(call);
    }

    /**
     * Whether the agent runs {@code call}, about to be enqueued with {@code callback}, itself; when
     * not, OkHttp enqueues it as ever. A failure of the agent's leaves it to OkHttp.
     */
    boolean take(Call call, Callback callback) {
        return EntryGuard.open(
                        "okhttp-enqueue",
                        "an enqueued OkHttp call",
                        () -> enqueued.take(call, callback, interceptor) ? Boolean.TRUE : null)
                != null;
    }

    /** Tells the call's wait, or its run on the asynchronous face, that the app cancelled {@code call}. */
    void cancelled(Call call) {
        cancels.cancelled(call);
        enqueued.cancelled(call);
    }
}
