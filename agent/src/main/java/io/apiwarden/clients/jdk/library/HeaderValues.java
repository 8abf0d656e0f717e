package io.apiwarden.clients.jdk.library;

import java.net.http.HttpHeaders;
import java.util.List;
import java.util.function.Function;

/**
 * A response's header values by name, for the classifier and the engine's looks at an answer. A class, not a lambda:
 * a lambda's first run spins a class on the app's first call (docs/benchmarks.md).
 */
final class HeaderValues implements Function<String, List<String>> {
    private final HttpHeaders headers;

    HeaderValues(HttpHeaders headers) {
        this.headers = headers;
    }

    @Override
    public List<String> apply(String name) {
        return headers.allValues(name);
    }
}
