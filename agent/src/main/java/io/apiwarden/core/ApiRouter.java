package io.apiwarden.core;

import io.apiwarden.core.scope.ApiScope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Routes each request to the API whose base URL contains it, the longest base path winning where bases overlap.
 * An unmanaged request costs one origin comparison with one API, and one map lookup by host with several,
 * however many there are. Each API's {@link Warden} is made on the first request that belongs to it.
 */
public final class ApiRouter implements Wardens {
    /** One API: its base (to route by), the scope it manages (the base less its token endpoint), and its Warden. */
    public static final class Route {
        private final ApiScope base;
        private final ApiScope managed;
        private final Supplier<Warden> warden;
        private volatile Warden made;

        /**
         * @param managed the API's scope: its base URL, less its token endpoint
         * @param warden makes the API's Warden; called once, on the first request to the API
         */
        public Route(ApiScope managed, Supplier<Warden> warden) {
            this.base = ApiScope.of(managed.baseUrl());
            this.managed = managed;
            this.warden = warden;
        }

        private Warden warden() {
            Warden w = made;
            if (w == null) {
                synchronized (this) {
                    if (made == null) {
                        made = warden.get();
                    }
                    w = made;
                }
            }
            return w;
        }

        private int basePathLength() {
            String path = managed.baseUrl().getRawPath();
            return path == null ? 0 : path.replaceAll("/+$", "").length();
        }
    }

    /** Set when there is one API: the common case takes no map lookup. */
    private final Route only;
    /** Each host (lower case, without brackets or a trailing dot) to its APIs, longest base path first. */
    private final Map<String, Route[]> byHost;

    public ApiRouter(List<Route> routes) {
        if (routes.isEmpty()) {
            throw new IllegalArgumentException("a router needs at least one API");
        }
        this.only = routes.size() == 1 ? routes.get(0) : null;
        Map<String, List<Route>> grouped = new HashMap<>();
        // Loops, not lambdas: this runs at start-up, where each lambda costs a spun class (docs/benchmarks.md).
        for (Route r : routes) {
            String host = hostKey(r.managed.baseUrl().getHost());
            List<Route> list = grouped.get(host);
            if (list == null) {
                list = new ArrayList<>();
                grouped.put(host, list);
            }
            list.add(r);
        }
        this.byHost = new HashMap<>();
        for (Map.Entry<String, List<Route>> e : grouped.entrySet()) {
            List<Route> list = e.getValue();
            list.sort(LONGEST_BASE_PATH_FIRST);
            byHost.put(e.getKey(), list.toArray(new Route[0]));
        }
    }

    private static final Comparator<Route> LONGEST_BASE_PATH_FIRST = new LongestBasePathFirst();

    private static final class LongestBasePathFirst implements Comparator<Route> {
        @Override
        public int compare(Route a, Route b) {
            return Integer.compare(b.basePathLength(), a.basePathLength());
        }
    }

    /**
     * Starts every API's Warden that has not started: when the app builds its first managed client, as a JVM with one
     * API always did, so that its token and its fleet's rate-limit window are known before its first call.
     */
    public void startAll() {
        for (Route[] routes : byHost.values()) {
            for (Route r : routes) {
                r.warden();
            }
        }
    }

    @Override
    public Warden forRequest(String scheme, String host, int port, String rawPath) {
        if (only != null) {
            return only.managed.contains(scheme, host, port, rawPath) ? only.warden() : null;
        }
        if (host == null) {
            return null;
        }
        Route[] routes = byHost.get(host);
        if (routes == null) {
            String key = hostKey(host);
            if (key.equals(host) || (routes = byHost.get(key)) == null) {
                return null;
            }
        }
        for (Route r : routes) {
            if (r.base.contains(scheme, host, port, rawPath)) {
                // The longest base containing the request owns it; its token endpoint stays unmanaged, and never
                // falls to a shorter base's API (whose token that endpoint did not issue).
                return r.managed.contains(scheme, host, port, rawPath) ? r.warden() : null;
            }
        }
        return null;
    }

    @Override
    public boolean hasApiOn(String host) {
        if (host == null) {
            return false;
        }
        if (only != null) {
            String apiHost = only.managed.baseUrl().getHost();
            return host.equalsIgnoreCase(apiHost) || hostKey(host).equals(hostKey(apiHost));
        }
        return byHost.containsKey(host) || byHost.containsKey(hostKey(host));
    }

    private static String hostKey(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
