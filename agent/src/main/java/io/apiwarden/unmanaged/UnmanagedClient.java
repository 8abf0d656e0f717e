package io.apiwarden.unmanaged;

import io.apiwarden.core.scope.ApiScope;
import java.net.URI;
import java.net.URL;
import java.net.URLConnection;

/**
 * An HTTP client the agent sees but does not manage, and how to tell, from the arguments of the one
 * method the agent watches in it, whether a request goes to the API.
 *
 * <p>The agent is not compiled against these libraries (they may not be there, and when they are,
 * they belong to the app), so their objects are read through their public API by reflection
 * ({@link PublicGetter}); that runs only until the client's first call to the API.
 */
public enum UnmanagedClient {
    /** {@code java.net.HttpURLConnection} and {@code HttpsURLConnection}: the JDK's own, under many SDKs and Spring's {@code SimpleClientHttpRequestFactory}. */
    HTTP_URL_CONNECTION("HttpURLConnection", "sun.net.www.") {
        @Override
        boolean callsApi(ApiScope scope, Object connection, Object unused) {
            URL url = ((URLConnection) connection).getURL();
            return scope.contains(url.getProtocol(), url.getHost(), url.getPort(), url.getPath());
        }
    },
    /** Apache HttpClient 4 ({@code org.apache.http}): {@code doExecute(target, request, context)}. */
    APACHE_HTTPCLIENT_4("Apache HttpClient 4", "org.apache.http.") {
        @Override
        boolean callsApi(ApiScope scope, Object target, Object request) throws ReflectiveOperationException {
            // getRequestLine().getUri() is the request's URI as the app gave it, absolute or a path.
            return inScope(scope, target, () -> {
                Object line = REQUEST_LINE.get(request);
                return line == null ? null : (String) URI_STRING.get(line);
            });
        }
    },
    /**
     * Apache HttpClient 5, classic ({@code doExecute(target, request, context)}) and async
     * ({@code doExecute(target, producer, ...)}, where only the target is known). The clients its
     * builders build (classic and async) are watched only when the agent's management of them is
     * switched off; the minimal clients always.
     */
    APACHE_HTTPCLIENT_5("Apache HttpClient 5", "org.apache.hc.") {
        @Override
        boolean callsApi(ApiScope scope, Object target, Object request) throws ReflectiveOperationException {
            return inScope(scope, target, () -> request == null ? null : (String) REQUEST_PATH.get(request));
        }
    },
    /** The Jetty client ({@code org.eclipse.jetty.client}, 9 to 12): {@code request.send(listener)}. */
    JETTY("Jetty HttpClient", "org.eclipse.jetty.") {
        @Override
        boolean callsApi(ApiScope scope, Object request, Object unused) throws ReflectiveOperationException {
            return scope.contains((URI) REQUEST_URI.get(request));
        }
    };

    private static final PublicGetter REQUEST_LINE = new PublicGetter("getRequestLine");
    private static final PublicGetter URI_STRING = new PublicGetter("getUri");
    private static final PublicGetter REQUEST_PATH = new PublicGetter("getPath");
    private static final PublicGetter REQUEST_URI = new PublicGetter("getURI");
    private static final PublicGetter SCHEME_NAME = new PublicGetter("getSchemeName");
    private static final PublicGetter HOST_NAME = new PublicGetter("getHostName");
    private static final PublicGetter PORT = new PublicGetter("getPort");

    private final String displayName;
    /** The package prefix of the classes that open its connections, for the last-resort {@link ConnectWatch}. */
    private final String packagePrefix;

    UnmanagedClient(String displayName, String packagePrefix) {
        this.displayName = displayName;
        this.packagePrefix = packagePrefix;
    }

    /**
     * Whether a connection opened with {@code type} on the stack is this client's: this watch names the client's
     * calls to the API (it sees their URLs), so the last resort leaves its connections alone.
     */
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith(packagePrefix);
    }

    /** The client's name as users know it, for the warning. */
    public String displayName() {
        return displayName;
    }

    /**
     * Whether the watched call, given the arguments the woven code passes ({@code null} for those it
     * has none of), goes to the API.
     */
    abstract boolean callsApi(ApiScope scope, Object first, Object second) throws ReflectiveOperationException;

    /**
     * For the Apache clients: {@code target} is an {@code HttpHost} (null when the request names its own
     * host); {@code requestUri} yields the request's URI, absolute or just a path, or null when unknown (then
     * the origin alone decides). The target's origin is compared first: most calls go elsewhere, and for
     * them no URI is parsed.
     */
    private static boolean inScope(ApiScope scope, Object target, RequestUri requestUri)
            throws ReflectiveOperationException {
        if (target != null
                && !scope.sameOrigin(
                        (String) SCHEME_NAME.get(target), (String) HOST_NAME.get(target), (Integer) PORT.get(target))) {
            return false;
        }
        String raw = requestUri.get();
        URI uri = null;
        if (raw != null) {
            try {
                uri = URI.create(raw);
            } catch (IllegalArgumentException e) {
                // Not a URI the client could send as it is; the origin still says where it goes.
            }
        }
        if (uri != null && uri.getHost() != null) {
            return scope.contains(uri);
        }
        if (target == null) {
            return false;
        }
        return uri == null
                ? scope.sameOrigin(
                        (String) SCHEME_NAME.get(target), (String) HOST_NAME.get(target), (Integer) PORT.get(target))
                : scope.contains(
                        (String) SCHEME_NAME.get(target),
                        (String) HOST_NAME.get(target),
                        (Integer) PORT.get(target),
                        uri.getRawPath());
    }

    /** Reads a request's URI only when it is needed. */
    private interface RequestUri {
        String get() throws ReflectiveOperationException;
    }
}
