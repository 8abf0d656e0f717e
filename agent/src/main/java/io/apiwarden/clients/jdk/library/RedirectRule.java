package io.apiwarden.clients.jdk.library;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.util.Locale;
import java.util.Optional;

/**
 * The JDK client's rules for following a redirect, applied by the agent itself to managed
 * calls so that it, not the JDK, decides which hop may carry the token.
 *
 * <p>The rules mirror {@code jdk.internal.net.http.RedirectFilter}: 301, 302, 303, 307 and 308
 * with a {@code Location} are followed; 303 (and 301/302 after a POST) become a GET without
 * body; {@code NORMAL} never goes from https to http.
 */
final class RedirectRule {
    /**
     * The JDK's default for {@code jdk.httpclient.redirects.retrylimit}: at most five hops.
     */
    static final int MAX_HOPS = 5;

    /** One hop: where to go and with which method. */
    static final class Hop {
        final URI target;
        final String method;

        Hop(URI target, String method) {
            this.target = target;
            this.method = method;
        }
    }

    private final HttpClient.Redirect policy;

    RedirectRule(HttpClient.Redirect policy) {
        this.policy = policy;
    }

    /** The hop the app's client would make for this response, or null when it would not follow it. */
    Hop hop(int status, HttpHeaders headers, URI from, String method) {
        if (policy == HttpClient.Redirect.NEVER || !isRedirect(status)) {
            return null;
        }
        Optional<String> location = headers.firstValue("Location");
        if (location.isEmpty()) {
            return null;
        }
        URI target;
        try {
            target = from.resolve(location.get().trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (target.getScheme() == null || target.getHost() == null) {
            return null;
        }
        String newScheme = target.getScheme().toLowerCase(Locale.ROOT);
        String oldScheme = from.getScheme().toLowerCase(Locale.ROOT);
        if (!newScheme.equals("http") && !newScheme.equals("https")) {
            return null;
        }
        if (policy == HttpClient.Redirect.NORMAL && !newScheme.equals(oldScheme) && !newScheme.equals("https")) {
            return null;
        }
        return new Hop(target, redirectedMethod(status, method));
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    private static String redirectedMethod(int status, String method) {
        if (status == 303) {
            return "GET";
        }
        if ((status == 301 || status == 302) && method.equals("POST")) {
            return "GET";
        }
        return method;
    }
}
