package io.apiwarden.okhttp;

import io.apiwarden.core.Warden;
import io.apiwarden.core.log.AgentLog;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;

/**
 * The agent's application interceptor: requests outside the API go on untouched; each managed
 * request becomes a {@link ManagedOkHttpCall}.
 */
final class WardenInterceptor implements Interceptor {
    private final Warden warden;
    private final AsyncRetries asyncRetries;

    WardenInterceptor(Warden warden, AsyncRetries asyncRetries) {
        this.warden = warden;
        this.asyncRetries = asyncRetries;
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        ManagedOkHttpCall call;
        try {
            HttpUrl url = request.url();
            if (!warden.scope().contains(url.scheme(), url.host(), url.port(), url.encodedPath())) {
                return chain.proceed(request);
            }
            call = new ManagedOkHttpCall(warden, chain, asyncRetries.stateOf(chain.call()), asyncRetries);
        } catch (RuntimeException e) {
            AgentLog.once(AgentLog.Level.WARN, "okhttp-interceptor", "an OkHttp call could not be managed; it goes out as without the agent", e);
            return chain.proceed(request);
        }
        return call.proceed();
    }

    @Override
    public String toString() {
        return "ApiWardenInterceptor";
    }
}
