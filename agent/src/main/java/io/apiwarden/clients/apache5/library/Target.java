package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.CallTarget;
import org.apache.hc.client5.http.HttpRoute;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.net.URIAuthority;

/**
 * Where one request of Apache HttpClient 5 goes, read from the request (the client sets its scheme
 * and authority before the exec chain runs) or, failing that, from its route's target.
 */
final class Target {
    final String scheme;
    final String host;
    /** -1 for the scheme's default. */
    final int port;
    /** Path as sent, without the query. */
    final String rawPath;
    /** Path and query as sent. */
    final String pathAndQuery;

    private Target(String scheme, String host, int port, String pathAndQuery) {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.pathAndQuery = pathAndQuery == null ? "/" : pathAndQuery;
        int query = this.pathAndQuery.indexOf('?');
        this.rawPath = query < 0 ? this.pathAndQuery : this.pathAndQuery.substring(0, query);
    }

    static Target of(HttpRequest request, HttpRoute route) {
        String scheme = request.getScheme();
        URIAuthority authority = request.getAuthority();
        HttpHost target = route == null ? null : route.getTargetHost();
        if (scheme == null && target != null) {
            scheme = target.getSchemeName();
        }
        String host;
        int port;
        if (authority != null) {
            host = authority.getHostName();
            port = authority.getPort();
        } else if (target != null) {
            host = target.getHostName();
            port = target.getPort();
        } else {
            host = null;
            port = -1;
        }
        return new Target(scheme, host, port, request.getPath());
    }

    /** The Warden of the API this target belongs to, or null. */
    Warden route(Wardens wardens) {
        return wardens.forRequest(scheme, host, port, rawPath);
    }

    /** This target as the engine's call driver takes it. */
    CallTarget callTarget(String method) {
        return new CallTarget(method, url(), scheme, host, port, rawPath);
    }

    /** The URL for telemetry (which redacts what it must). */
    String url() {
        StringBuilder b = new StringBuilder(scheme).append("://");
        b.append(host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host);
        if (port != -1) {
            b.append(':').append(port);
        }
        return b.append(pathAndQuery).toString();
    }
}
