package io.apiwarden.core.config;

import io.apiwarden.core.scope.ApiScope;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks how the APIs' bases route requests: two APIs with the same base are a problem (a request could belong to
 * either); a base under another's (same origin, {@code /v1} and {@code /v1/admin}) is allowed, the longest base
 * winning, and said at start-up so that nobody is surprised by it.
 */
final class Routing {
    private Routing() {}

    /** The overlaps, as phrases for the start-up line; duplicates go to {@code problems}. */
    static List<String> check(List<String> names, List<ApiScope> scopes, Problems problems) {
        List<String> overlaps = new ArrayList<>();
        for (int i = 0; i < scopes.size(); i++) {
            for (int j = i + 1; j < scopes.size(); j++) {
                ApiScope a = scopes.get(i);
                ApiScope b = scopes.get(j);
                if (a == null || b == null) {
                    continue;
                }
                boolean bUnderA = a.contains(b.baseUrl());
                boolean aUnderB = b.contains(a.baseUrl());
                if (bUnderA && aUnderB) {
                    problems.add("the APIs " + names.get(i) + " and " + names.get(j) + " have the same base "
                            + a.baseUrl() + ": give each API its own base URL, or merge them into one");
                } else if (bUnderA || aUnderB) {
                    int outer = bUnderA ? i : j;
                    int inner = bUnderA ? j : i;
                    overlaps.add("calls under " + scopes.get(inner).baseUrl() + " go to " + names.get(inner)
                            + ", the rest of " + scopes.get(outer).baseUrl() + " to " + names.get(outer));
                }
            }
        }
        return overlaps;
    }

    /**
     * The bases of the other APIs under the API {@code outer}'s base (same origin, a longer path): requests there are
     * theirs, and never carry the outer API's token, not even on a redirect during one of its calls.
     */
    static List<URI> basesUnder(int outer, List<ApiScope> scopes) {
        List<URI> inner = new ArrayList<>();
        ApiScope o = scopes.get(outer);
        for (int j = 0; j < scopes.size(); j++) {
            ApiScope s = scopes.get(j);
            if (j != outer && o.contains(s.baseUrl()) && !s.contains(o.baseUrl())) {
                inner.add(s.baseUrl());
            }
        }
        return inner;
    }
}
