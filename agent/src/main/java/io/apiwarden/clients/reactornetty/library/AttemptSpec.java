package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.engine.AttemptHeaders;
import io.apiwarden.core.engine.RecordedBody;
import io.apiwarden.core.scope.ApiScope;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import reactor.netty.http.client.HttpClientRequest;
import reactor.netty.http.client.HttpClientResponse;

/**
 * The headers and time-out of one managed attempt, as they are put on each request Reactor Netty
 * sends for it: the first, and every redirect hop it follows. A hop outside the API gets none of
 * them, whatever Reactor Netty itself strips on a redirect.
 */
final class AttemptSpec {
    /** The subscriber-context key; a class of the glue's, so no app's key can clash with it. */
    static final Object KEY = AttemptSpec.class;

    private final ApiScope scope;
    /** The request's own URL, in the scope: a request Reactor Netty sends to it needs no parsing to know. */
    private final String requestUrl;
    /** Name, value, name, value: a copy, as the engine reuses its headers for the next attempt. */
    private final String[] pairs;

    private final Duration timeout;
    /** What the first request carried as {@code Authorization} once sent: tells the app's own value from the agent's. */
    final String agentAuthorization;
    /** The call's recording of its body, for a {@link RecordedBodyFunction}; null when the body is not recorded. */
    final RecordedBody recording;

    /** @param requestUrl the URL of the request, which its API's {@code scope} contains */
    AttemptSpec(ApiScope scope, String requestUrl, AttemptHeaders headers, Duration timeout, RecordedBody recording) {
        this.scope = scope;
        this.requestUrl = requestUrl;
        this.pairs = headers.toPairs();
        this.timeout = timeout;
        this.agentAuthorization = headers.get("Authorization");
        this.recording = recording;
    }

    /**
     * How many requests Reactor Netty prepared for this attempt: the first goes to the request's own URL; the others
     * follow a redirect (or resend after a reset) and are looked at by their URL. Asking a request for its URL
     * ({@code resourceUrl()}) builds a string of it each time, about a fifth of what managing a call allocated.
     */
    private volatile int prepared;

    private static final AtomicIntegerFieldUpdater<AttemptSpec> PREPARED =
            AtomicIntegerFieldUpdater.newUpdater(AttemptSpec.class, "prepared");

    void applyTo(HttpClientRequest request) {
        boolean first = PREPARED.getAndIncrement(this) == 0;
        if (!first && !inScope(request.resourceUrl())) {
            return;
        }
        for (int i = 0; i < pairs.length; i += 2) {
            request.header(pairs[i], pairs[i + 1]);
        }
        if (timeout != null) {
            request.responseTimeout(timeout);
        }
    }

    /**
     * Whether the response to this attempt came from the API: from the request's own URL when Reactor Netty sent
     * nothing else for it, else from where its last request went.
     */
    boolean answeredInScope(HttpClientResponse response) {
        return prepared <= 1 || inScope(response.resourceUrl());
    }

    boolean inScope(String url) {
        if (url == null) {
            return false;
        }
        if (url.equals(requestUrl)) {
            // The request itself, not a redirect hop: asked twice per attempt, and a URI parse costs more than the
            // rest.
            return true;
        }
        try {
            return scope.contains(URI.create(url));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Header names only: the values include a token. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("AttemptSpec[");
        for (int i = 0; i < pairs.length; i += 2) {
            b.append(i == 0 ? "" : ", ").append(pairs[i]);
        }
        return b.append(']').toString();
    }
}
