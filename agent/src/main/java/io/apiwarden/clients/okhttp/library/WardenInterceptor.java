package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.log.AgentLog;
import java.io.IOException;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The agent's application interceptor: requests outside the API go on untouched; each managed
 * request becomes an {@link OkHttpExchange}.
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
        OkHttpExchange call = null;
        try {
            if (inScope(warden, request.url())) {
                call = new OkHttpExchange(warden, chain, asyncRetries.stateOf(chain.call()), asyncRetries);
            }
        } catch (RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "okhttp-interceptor",
                    "an OkHttp call could not be managed; it goes out as without the agent",
                    e);
        }
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        return call == null ? chain.proceed(request) : call.proceed();
    }

    static boolean inScope(Warden warden, HttpUrl url) {
        return warden.scope().contains(url.scheme(), url.host(), url.port(), url.encodedPath());
    }

    @Override
    public String toString() {
        return "ApiWardenInterceptor";
    }
}
