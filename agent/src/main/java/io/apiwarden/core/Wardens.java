package io.apiwarden.core;

import java.net.URI;

/**
 * Finds the {@link Warden} of the API a request belongs to: the one routing point between the clients and the
 * APIs. A single {@link Warden} is one (library mode: it manages the requests under its base); the agent's
 * {@link ApiRouter} routes among every configured API, the longest base winning.
 */
public interface Wardens {
    /**
     * The Warden of the API a request to the URL made of these parts belongs to, or null when it belongs to none
     * (it then goes out as the app sent it).
     *
     * @param port the port, or -1 for the scheme's default
     * @param rawPath the path as sent, percent-encoded
     */
    Warden forRequest(String scheme, String host, int port, String rawPath);

    /**
     * Whether some API's base URL is on {@code host} (as the request names it, any case): a cheap first filter for
     * a client that knows a request's host before the rest of its URL. False means no request to it is managed.
     */
    boolean hasApiOn(String host);

    /** As above, for a {@link URI}; null for a null one. */
    default Warden forRequest(URI uri) {
        return uri == null ? null : forRequest(uri.getScheme(), uri.getHost(), uri.getPort(), uri.getRawPath());
    }
}
