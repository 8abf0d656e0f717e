package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.log.AgentLog;
import reactor.netty.Connection;
import reactor.netty.ConnectionObserver;
import reactor.netty.http.client.HttpClientRequest;
import reactor.netty.http.client.HttpClientState;

/**
 * Sets a managed attempt's headers as Reactor Netty prepares each request it sends for it: the
 * attempt's {@link AttemptSpec} travels in the subscriber context of the attempt, so requests
 * the agent does not manage carry none and cost one context look-up. Added to every client's
 * observers by the woven {@code HttpClientConfig.defaultConnectionObserver()}.
 *
 * <p>Runs after the client's own {@code doOnRequest} callbacks; a function that writes the body
 * (Spring's) sets its headers after this, and an {@code Authorization} it sets wins.
 */
final class AttemptHeadersObserver implements ConnectionObserver {
    static final AttemptHeadersObserver INSTANCE = new AttemptHeadersObserver();

    private AttemptHeadersObserver() {}

    @Override
    public void onStateChange(Connection connection, State newState) {
        if (newState != HttpClientState.REQUEST_PREPARED || !(connection instanceof HttpClientRequest)) {
            return;
        }
        try {
            HttpClientRequest request = (HttpClientRequest) connection;
            AttemptSpec attempt = request.currentContextView().getOrDefault(AttemptSpec.KEY, null);
            if (attempt != null) {
                attempt.applyTo(request);
            }
        } catch (RuntimeException | LinkageError e) {
            // The request goes as the app made it: as if the agent were not there.
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "reactor-netty-headers",
                    "a managed Reactor Netty request could not be given its headers",
                    e);
        }
    }
}
