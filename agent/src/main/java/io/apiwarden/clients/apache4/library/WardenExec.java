package io.apiwarden.clients.apache4.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import org.apache.http.HttpException;
import org.apache.http.HttpHost;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpExecutionAware;
import org.apache.http.client.methods.HttpRequestWrapper;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.client.utils.URIUtils;
import org.apache.http.conn.routing.HttpRoute;
import org.apache.http.impl.execchain.ClientExecChain;

/**
 * The agent's step in an Apache HttpClient 4 exec chain, on top of its protocol step: requests outside
 * the API go on untouched; each managed request becomes an {@link Apache4Exchange}.
 */
final class WardenExec implements ClientExecChain {
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    private final ClientExecChain next;

    WardenExec(Wardens wardens, ClientExecChain next) {
        this.wardens = wardens;
        this.next = next;
    }

    @Override
    public CloseableHttpResponse execute(
            HttpRoute route, HttpRequestWrapper request, HttpClientContext context, HttpExecutionAware execAware)
            throws IOException, HttpException {
        if (Apache4Exchange.isAttempt(request, context)) {
            // The agent's own attempt, passing a second step of the agent's (a library-mode builder the agent wove
            // too).
            return next.execute(route, request, context, execAware);
        }
        Apache4Exchange call = EntryGuard.open("apache4-exec", "an Apache HttpClient 4 call", () -> {
            URI uri = absolute(request, route);
            Warden warden = wardens.forRequest(uri);
            return warden == null ? null : new Apache4Exchange(warden, uri, next, route, request, context, execAware);
        });
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        return call == null ? next.execute(route, request, context, execAware) : call.run();
    }

    /** The request's URI as the app gave it, made absolute with the request's (or the route's) target when it is a path. */
    private static URI absolute(HttpRequestWrapper request, HttpRoute route) {
        URI uri = request.getURI();
        if (uri == null) {
            uri = URI.create(request.getRequestLine().getUri());
        }
        if (uri.isAbsolute()) {
            return uri;
        }
        HttpHost target = request.getTarget() != null ? request.getTarget() : route.getTargetHost();
        try {
            return URIUtils.rewriteURI(uri, target);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a URI the agent can read", e);
        }
    }

    @Override
    public String toString() {
        return "ApiWardenExec[" + next + "]";
    }
}
