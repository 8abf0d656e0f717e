package io.apiwarden.core.engine;

import io.apiwarden.core.scope.ApiScope;
import io.apiwarden.core.token.Htu;
import java.net.URI;

/**
 * Where one managed call goes, as its client says it: what the call's span and meters name, and,
 * with the method, the resource a refusal is remembered for. The port is always a number: the
 * scheme's default when the request names none ({@link ApiScope#effectivePort}, the one rule).
 */
public final class CallTarget {
    final String method;
    /** The URL for telemetry (which redacts what it must). */
    final String url;

    final String scheme;

    final String host;
    final int port;
    /** The path as sent, without query. */
    final String rawPath;

    /**
     * @param port the request's port, or -1 for the scheme's default
     * @param rawPath the request's path as sent, without query
     */
    public CallTarget(String method, String url, String scheme, String host, int port, String rawPath) {
        this.method = method;
        this.url = url;
        this.scheme = scheme;
        this.host = host;
        this.port = ApiScope.effectivePort(scheme, port);
        this.rawPath = rawPath;
    }

    /** The target as a DPoP proof names it: without query and fragment, normalised ({@link Htu}). */
    String htu() {
        return Htu.of(scheme, host, port, rawPath);
    }

    /** The target of a request to {@code uri}, its URL as the app wrote it. */
    public static CallTarget of(String method, URI uri) {
        return new CallTarget(method, uri.toString(), uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
    }
}
