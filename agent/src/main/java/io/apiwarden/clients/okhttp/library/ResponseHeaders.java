package io.apiwarden.clients.okhttp.library;

import java.util.List;
import java.util.function.Function;
import okhttp3.Response;

/**
 * A response's values of a header, by name: a class, not {@code response::headers}, which would cost a class spun on
 * the first call (docs/benchmarks.md).
 */
final class ResponseHeaders implements Function<String, List<String>> {
    private final Response response;

    ResponseHeaders(Response response) {
        this.response = response;
    }

    @Override
    public List<String> apply(String name) {
        return response.headers(name);
    }
}
