package io.apiwarden.clients.micronaut.library;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.client.exceptions.HttpClientResponseException;

/**
 * What one attempt brought back through the rest of Micronaut's filter chain: a response, or, for an error status
 * (Micronaut's default {@code exceptionOnErrorStatus}), the {@link HttpClientResponseException} carrying it. The
 * app gets the one it would have had: the response emitted, or the exception signalled.
 */
final class Reply {
    final HttpResponse<?> response;
    /** Null when the response is emitted as such. */
    final HttpClientResponseException error;

    private Reply(HttpResponse<?> response, HttpClientResponseException error) {
        this.response = response;
        this.error = error;
    }

    static Reply of(HttpResponse<?> response) {
        return new Reply(response, null);
    }

    static Reply of(HttpClientResponseException error) {
        return new Reply(error.getResponse(), error);
    }
}
