package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.Warden;
import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The agent's network interceptor: sees every hop OkHttp makes, redirects included, and takes
 * the agent's token off any hop outside the API's base URL. OkHttp itself drops
 * {@code Authorization} only when the host, port or scheme changes; this also covers a
 * redirect to another path of the same host.
 */
final class TokenFence implements Interceptor {
    /**
     * Marks a request that carries the agent's token, with the Warden of the API it is for; OkHttp copies tags onto
     * redirects.
     */
    static final class AgentToken {
        final Warden warden;

        AgentToken(Warden warden) {
            this.warden = warden;
        }
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        AgentToken token = request.tag(AgentToken.class);
        if (token != null && !WardenInterceptor.inScope(token.warden, request.url())) {
            request = request.newBuilder().removeHeader("Authorization").build();
        }
        return chain.proceed(request);
    }

    @Override
    public String toString() {
        return "ApiWardenTokenFence";
    }
}
