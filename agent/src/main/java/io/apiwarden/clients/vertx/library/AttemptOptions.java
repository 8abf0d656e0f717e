package io.apiwarden.clients.vertx.library;

import io.vertx.core.http.RequestOptions;

/**
 * The options of a request the agent itself makes through the app's client (an attempt after the first,
 * a redirect hop of a managed attempt): the woven {@code request} lets them go as they are, never managing
 * a request twice.
 */
final class AttemptOptions extends RequestOptions {
    AttemptOptions(RequestOptions other) {
        super(other);
    }
}
