package io.apiwarden.okhttp;

import io.apiwarden.agent.OkHttpBridge;
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
    private final AsyncRetries asyncRetries;

    public OkHttpGlue(Warden warden) {
        this.warden = warden;
        this.asyncRetries = new AsyncRetries(warden);
        this.interceptor = new WardenInterceptor(warden, asyncRetries);
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
    }

    @Override
    public Object onEnqueue(Object call, Object callback) {
        Call c = (Call) call;
        if (callback instanceof AsyncRetries.RetryingCallback || !warden.scope().contains(
                c.request().url().scheme(), c.request().url().host(), c.request().url().port(), c.request().url().encodedPath())) {
            return callback;
        }
        return asyncRetries.wrap(c, (Callback) callback);
    }

    @Override
    public void onCancel(Object call) {
        asyncRetries.cancelled((Call) call);
    }
}
