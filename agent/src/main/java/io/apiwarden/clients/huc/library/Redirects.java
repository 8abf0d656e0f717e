package io.apiwarden.clients.huc.library;

import java.net.MalformedURLException;
import java.net.URL;

/**
 * The JDK's rules for following a redirect from an {@code HttpURLConnection}, applied by the agent itself to
 * managed calls, so that it, not the JDK, decides which hop may carry the token: 300 to 303 and 307 with a
 * {@code Location} in the same protocol (never 304, 305, 306 or 308); after a POST, every one but 307 is
 * followed with a GET without body or request properties (unless {@code http.strictPostRedirect});
 * at most {@code http.maxRedirects} hops (20).
 */
final class Redirects {
    private Redirects() {}

    /** One hop: where to go and with which method. */
    static final class Hop {
        final URL target;
        final String method;
        /** Whether the hop still carries the body and the app's request properties. */
        final boolean keepsRequest;

        Hop(URL target, String method, boolean keepsRequest) {
            this.target = target;
            this.method = method;
            this.keepsRequest = keepsRequest;
        }
    }

    /** The JDK's bound on the hops of one call. */
    static int maxHops() {
        return Integer.getInteger("http.maxRedirects", 20);
    }

    /** The hop the JDK would make for this response, or null when it would not follow it. */
    static Hop hop(int status, String location, URL from, String method) {
        if (status < 300 || status > 307 || status == 304 || status == 305 || status == 306 || location == null) {
            return null;
        }
        URL target;
        try {
            target = new URL(from, location);
        } catch (MalformedURLException e) {
            return null;
        }
        if (!from.getProtocol().equalsIgnoreCase(target.getProtocol())) {
            return null;
        }
        if ("POST".equals(method) && status != 307 && !Boolean.getBoolean("http.strictPostRedirect")) {
            return new Hop(target, "GET", false);
        }
        return new Hop(target, method, true);
    }
}
