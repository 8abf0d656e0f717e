package io.apiwarden.clients.jdk.library;

import io.apiwarden.core.scope.ApiScope;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Copies of an app's {@link HttpRequest}, made by hand because
 * {@code HttpRequest.newBuilder(request, filter)} only exists from Java 16.
 */
final class Requests {
    static final String AUTHORIZATION = "Authorization";

    /**
     * Publishers of the JDK that produce the same bytes every time they are subscribed:
     * {@code ofString}, {@code ofByteArray(s)}, {@code ofFile} and {@code noBody}.
     * {@code ofInputStream} asks its supplier for a stream on each subscription, but a supplier
     * may well hand back the same, spent stream; {@code fromPublisher} and the app's own
     * publishers may be one-shot. None of those is resent as it is: {@link ManagedCall} records
     * them as they are sent and resends the recording.
     */
    private static final Set<String> REPEATABLE_PUBLISHERS = Set.of(
            "jdk.internal.net.http.RequestPublishers$ByteArrayPublisher",
            "jdk.internal.net.http.RequestPublishers$StringPublisher",
            "jdk.internal.net.http.RequestPublishers$IterablePublisher",
            "jdk.internal.net.http.RequestPublishers$FilePublisher",
            "jdk.internal.net.http.RequestPublishers$EmptyPublisher");

    private Requests() {}

    /** Whether the request can be sent again with the same body. */
    static boolean isRepeatable(HttpRequest request) {
        return request.bodyPublisher()
                .map(p -> REPEATABLE_PUBLISHERS.contains(p.getClass().getName()))
                .orElse(true);
    }

    /**
     * The request for following a redirect to {@code target}, as the JDK builds it: same headers,
     * the body only when the method stays the same. A hop to another origin loses
     * {@code Authorization}, the app's own included, as on JDK 21 and later.
     */
    static HttpRequest redirected(HttpRequest request, URI target, String method) {
        BodyPublisher body =
                method.equals(request.method()) ? request.bodyPublisher().orElse(null) : null;
        return copy(request, target, method, body, sameOrigin(request.uri(), target));
    }

    static boolean sameOrigin(URI a, URI b) {
        return a.getScheme().equalsIgnoreCase(b.getScheme())
                && a.getHost().equalsIgnoreCase(b.getHost())
                && ApiScope.effectivePort(a.getScheme(), a.getPort())
                        == ApiScope.effectivePort(b.getScheme(), b.getPort());
    }

    private static HttpRequest copy(
            HttpRequest request, URI uri, String method, BodyPublisher body, boolean keepAuthorization) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).expectContinue(request.expectContinue());
        request.timeout().ifPresent(b::timeout);
        request.version().ifPresent(b::version);
        for (Map.Entry<String, List<String>> header : request.headers().map().entrySet()) {
            if (keepAuthorization || !header.getKey().equalsIgnoreCase(AUTHORIZATION)) {
                for (String value : header.getValue()) {
                    b.header(header.getKey(), value);
                }
            }
        }
        if (body == null && method.equals("GET")) {
            b.GET();
        } else if (body == null && method.equals("DELETE")) {
            b.DELETE();
        } else {
            b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : body);
        }
        return b.build();
    }
}
