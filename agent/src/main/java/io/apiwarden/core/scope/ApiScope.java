package io.apiwarden.core.scope;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether a request URL belongs to the managed API: same scheme, host and port as the
 * base URL, and a path under the base path on a segment boundary ({@code /v1} covers
 * {@code /v1/user}, not {@code /v1beta}) however a server resolves it ({@link RequestPath}:
 * {@code /v1/../admin} is not under {@code /v1}, and {@code /v1/..%2Fadmin} is never in scope).
 * The token endpoint is never in scope, and neither is a request under the base of another API nested in this
 * one's ({@code /v1/admin} in {@code /v1}): it is that API's, and a redirect during a call of this API that lands
 * there goes without this API's token. A request out of scope still goes out, as the app sent it, only without
 * the agent's token.
 */
public final class ApiScope {
    private static final ApiScope[] NONE = new ApiScope[0];

    private final URI baseUrl;
    private final String scheme;
    private final String host;
    private final int port;
    /** The base path without a trailing slash; empty for the root. */
    private final String basePath;
    /** The token endpoint's origin and path: never managed. Null when there is none. */
    private final ApiScope excludedOrigin;

    private final String excludedPath;
    private final URI excludedUrl;
    /** The scopes of other APIs whose bases lie under this one's: none, unless several APIs nest. */
    private final ApiScope[] inner;

    private ApiScope(URI baseUrl) {
        this(baseUrl, null, NONE);
    }

    private ApiScope(URI baseUrl, URI excluded, ApiScope[] inner) {
        this.excludedOrigin = excluded == null ? null : new ApiScope(excluded);
        this.excludedPath = excluded == null ? null : trimSlashes(excluded.getRawPath());
        this.excludedUrl = excluded;
        this.inner = inner;
        this.baseUrl = baseUrl;
        this.scheme = baseUrl.getScheme().toLowerCase(Locale.ROOT);
        this.host = normalizeHost(baseUrl.getHost());
        this.port = effectivePort(scheme, baseUrl.getPort());
        this.basePath = trimSlashes(baseUrl.getRawPath());
    }

    private static String trimSlashes(String rawPath) {
        String path = rawPath == null ? "" : rawPath;
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        return path;
    }

    /** A scope for an http or https base URL with a host. */
    public static ApiScope of(URI baseUrl) {
        if (baseUrl.getScheme() == null || baseUrl.getHost() == null) {
            throw new IllegalArgumentException("the base URL needs a scheme and a host");
        }
        return new ApiScope(baseUrl);
    }

    /** Returns a scope that treats {@code tokenUrl} as out of scope even when it lies under the base. */
    public ApiScope excluding(URI tokenUrl) {
        return new ApiScope(baseUrl, tokenUrl, inner);
    }

    /**
     * Returns a scope that treats requests under any of {@code innerBases} (other APIs' bases, under this one's) as
     * out of scope: they belong to those APIs.
     */
    public ApiScope excludingApisUnder(List<URI> innerBases) {
        if (innerBases.isEmpty() && inner.length == 0) {
            return this;
        }
        ApiScope[] scopes = new ApiScope[innerBases.size()];
        for (int i = 0; i < scopes.length; i++) {
            scopes[i] = of(innerBases.get(i));
        }
        return new ApiScope(baseUrl, excludedUrl, scopes);
    }

    public URI baseUrl() {
        return baseUrl;
    }

    /** True when the agent manages a request to {@code uri}. */
    public boolean contains(URI uri) {
        return uri != null && contains(uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
    }

    /**
     * True when the agent manages a request to the URL made of these parts, for clients whose
     * URL type is not {@link URI} (building one per call would cost an allocation and a parse).
     *
     * @param port the port, or -1 for the scheme's default
     * @param rawPath the path as sent, percent-encoded
     */
    public boolean contains(String scheme, String host, int port, String rawPath) {
        if (!sameOrigin(scheme, host, port)) {
            return false;
        }
        String path = rawPath == null ? "" : rawPath;
        if (RequestPath.isPlain(path)) {
            return underBasePath(path) && !excluded(scheme, host, port, path);
        }
        if (RequestPath.hasEncodedDotOrSlash(path)) {
            return false;
        }
        for (String reading : RequestPath.readings(path)) {
            if (!underBasePath(reading) || excluded(scheme, host, port, reading)) {
                return false;
            }
        }
        return true;
    }

    private boolean excluded(String scheme, String host, int port, String path) {
        for (ApiScope other : inner) {
            // Same origin as this scope (the caller checked it), so only the path can tell.
            if (other.underBasePath(path)) {
                return true;
            }
        }
        return excludedOrigin != null
                && excludedOrigin.sameOrigin(scheme, host, port)
                && trimSlashes(path).equals(excludedPath);
    }

    /**
     * True when {@code uri} has the API's scheme, host and port: where the token may go.
     * Compares without allocating, as it runs for every call of every wrapped client.
     */
    public boolean sameOrigin(URI uri) {
        return sameOrigin(uri.getScheme(), uri.getHost(), uri.getPort());
    }

    /**
     * True when a request to this scheme, host and port (-1 for the scheme's default) would go to the API's
     * origin: for callers that know no path.
     */
    public boolean sameOrigin(String s, String h, int p) {
        if (s == null || h == null || !s.equalsIgnoreCase(scheme)) {
            return false;
        }
        // IPv6 literals come bracketed from URI ("[::1]") and bare from OkHttp ("::1").
        int from = h.startsWith("[") ? 1 : 0;
        int length = h.length() - (from == 1 && h.endsWith("]") ? 2 : 0);
        boolean hostMatches = length == host.length()
                ? h.regionMatches(true, from, host, 0, host.length())
                : length == host.length() + 1
                        && h.charAt(from + length - 1) == '.'
                        && h.regionMatches(true, from, host, 0, host.length());
        return hostMatches && effectivePort(scheme, p) == port;
    }

    private boolean underBasePath(String path) {
        if (basePath.isEmpty()) {
            return true;
        }
        if (!path.startsWith(basePath)) {
            return false;
        }
        return path.length() == basePath.length() || path.charAt(basePath.length()) == '/';
    }

    private static String normalizeHost(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /** The port a request goes to: {@code port}, or the default of {@code scheme} when it is -1 (none named). */
    public static int effectivePort(String scheme, int port) {
        if (port != -1) {
            return port;
        }
        return "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }

    @Override
    public String toString() {
        return "ApiScope{" + scheme + "://" + host + ":" + port + basePath + "}";
    }
}
