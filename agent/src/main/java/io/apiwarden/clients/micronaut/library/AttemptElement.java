package io.apiwarden.clients.micronaut.library;

import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.scope.ApiScope;
import io.micronaut.core.propagation.PropagatedContextElement;
import io.micronaut.http.MutableHttpRequest;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * One attempt, in the propagated context the attempt is sent with. Micronaut follows a redirect by sending the
 * next hop through the filters again with that context, and copies the previous hop's headers onto it (all of them
 * within an origin): the agent's filter finds the attempt here, puts the attempt's headers on a hop inside the API
 * and takes them off any other.
 */
final class AttemptElement implements PropagatedContextElement {
    private final ApiScope scope;
    private final AttemptHeaders headers;
    /** Names of headers the app set itself, which stay as the app set them. */
    private final Set<String> appHeaders;

    private volatile URI lastHop;

    AttemptElement(ApiScope scope, AttemptHeaders headers, Set<String> appHeaders, URI first) {
        this.scope = scope;
        this.headers = headers;
        this.appHeaders = appHeaders;
        this.lastHop = first;
    }

    /** A redirect hop Micronaut is about to send within this attempt. */
    void hop(MutableHttpRequest<?> request) {
        URI uri = request.getUri();
        lastHop = uri;
        boolean inScope = uri.getHost() != null && scope.contains(uri);
        headers.forEach((name, value) -> {
            if (appHeaders.contains(name.toLowerCase(Locale.ROOT))) {
                return;
            }
            request.getHeaders().remove(name);
            if (inScope) {
                request.getHeaders().add(name, value);
            }
        });
    }

    /** Whether the last request Micronaut sent for this attempt was outside the API. */
    boolean leftTheApi() {
        URI uri = lastHop;
        return uri == null || uri.getHost() == null || !scope.contains(uri);
    }

    @Override
    public String toString() {
        return "AttemptElement[" + lastHop + "]";
    }
}
