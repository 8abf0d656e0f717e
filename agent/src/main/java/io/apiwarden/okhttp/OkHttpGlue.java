package io.apiwarden.okhttp;

import io.apiwarden.bridge.OkHttpBridge;
import io.apiwarden.core.Warden;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;

import java.util.List;

/**
 * The agent's entry into one copy of OkHttp. Defined by the agent in a class loader whose parent
 * is OkHttp's own, so that it links to the app's OkHttp whatever loader that is.
 */
public final class OkHttpGlue implements OkHttpBridge {
    private final Warden warden;
    private final WardenInterceptor interceptor;
    private final TokenFence fence;
    private final AsyncRetries asyncRetries;

    public OkHttpGlue(Warden warden) {
        this.warden = warden;
        this.asyncRetries = new AsyncRetries(warden);
        this.interceptor = new WardenInterceptor(warden, asyncRetries);
        this.fence = new TokenFence(warden);
    }

    /**
     * Puts the interceptor last among the application interceptors, so that it sees the request
     * as the app's own interceptors left it (an {@code Authorization} one of them set included).
     * A builder copied with {@code newBuilder()} already holds it: it is moved, not added twice.
     */
    @Override
    public void beforeBuild(Object builder) {
        List<Interceptor> interceptors = ((OkHttpClient.Builder) builder).interceptors();
        interceptors.removeIf(i -> i instanceof WardenInterceptor);
        interceptors.add(interceptor);
        List<Interceptor> network = ((OkHttpClient.Builder) builder).networkInterceptors();
        network.removeIf(i -> i instanceof TokenFence);
        network.add(fence);
    }

    @Override
    public Object onEnqueue(Object call, Object callback) {
        Call c = (Call) call;
        // An already executed call is about to be refused by OkHttp: nothing to wrap or track.
        if (callback instanceof AsyncRetries.RetryingCallback || c.isExecuted() || !WardenInterceptor.inScope(warden, c.request().url())) {
            return callback;
        }
        return asyncRetries.wrap(c, (Callback) callback);
    }

    @Override
    public void onCancel(Object call) {
        asyncRetries.cancelled((Call) call);
    }
}
