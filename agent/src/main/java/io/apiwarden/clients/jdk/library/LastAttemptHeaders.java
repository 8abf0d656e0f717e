package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.engine.AttemptHeaders;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiPredicate;

/**
 * The headers of the last attempt a client sent, for the next attempt whose request has the same headers and to which
 * the agent adds the same ones (the same token, no per-call request ID): {@link HttpHeaders#of} builds a tree map, a
 * set, a list per header and their entries (about 400 bytes), and the JDK's client copies the result once more
 * whatever it is. Immutable, so any number of attempts may share one; a new pair of headers replaces the last.
 */
final class LastAttemptHeaders {
    private static final class Merged {
        final HttpHeaders app;
        final String[] agent;
        final HttpHeaders headers;

        Merged(HttpHeaders app, String[] agent, HttpHeaders headers) {
            this.app = app;
            this.agent = agent;
            this.headers = headers;
        }
    }

    private volatile Merged last;

    /** {@code app}'s headers with {@code set}'s (replacing the app's values of the same names). */
    HttpHeaders merge(HttpHeaders app, AttemptHeaders set) {
        Merged m = last;
        if (m != null && set.matches(m.agent) && (m.app == app || m.app.equals(app))) {
            return m.headers;
        }
        Map<String, List<String>> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        merged.putAll(app.map());
        String[] pairs = set.toPairs();
        for (int i = 0; i < pairs.length; i += 2) {
            // put keeps the app's spelling of a name it replaces, as the builder's setHeader did.
            merged.put(pairs[i], List.of(pairs[i + 1]));
        }
        HttpHeaders headers = HttpHeaders.of(merged, AllHeaders.KEEP);
        last = new Merged(app, pairs, headers);
        return headers;
    }

    /** Keeps every header: a class, not a lambda, which would spin a class on the app's first call. */
    private static final class AllHeaders implements BiPredicate<String, String> {
        static final AllHeaders KEEP = new AllHeaders();

        @Override
        public boolean test(String name, String value) {
            return true;
        }
    }
}
