package io.apiwarden.clients.huc.library;

import java.net.HttpURLConnection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A response's headers as the engine reads them: the values of a name in any case. */
final class ResponseHeaders {
    private ResponseHeaders() {}

    static Function<String, List<String>> of(HttpURLConnection connection) {
        return name -> {
            for (Map.Entry<String, List<String>> e :
                    connection.getHeaderFields().entrySet()) {
                if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
                    return e.getValue();
                }
            }
            return List.of();
        };
    }
}
