package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.netty.handler.codec.http.HttpHeaders;
import java.lang.reflect.Field;
import java.net.URI;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import org.reactivestreams.Publisher;
import reactor.netty.NettyOutbound;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientConfig;
import reactor.netty.http.client.HttpClientRequest;

/**
 * What the agent needs of one Reactor Netty request, read from its client's configuration when
 * the app asks for the response publisher (the configuration is fixed from then on).
 */
final class ManagedRequest {
    /**
     * Lambdas of this class are the functions Reactor Netty makes around a body publisher the app
     * handed over once ({@code send(Publisher)}, {@code sendForm}).
     */
    private static final String LIBRARY_BODY = "reactor.netty.http.client.HttpClientFinalizer$";
    /** The request's body function; package-private in Reactor Netty, so null where it cannot be read (a named module). */
    private static final Field BODY = configField("body");
    /** The client's own headers, read without the copy {@code headers()} makes; null where it cannot be read. */
    private static final Field HEADERS = configField("headers");

    /** The Warden of the API the request belongs to. */
    final Warden warden;

    final String method;
    final String url;
    final URI uri;
    final Duration appTimeout;
    final boolean bodyRepeatable;
    /** Whether the body function was put behind a {@link RecordedBodyFunction}: the call records its body. */
    final boolean recordsBody;
    /** The client's own headers, set on every request before the agent's: null when none. */
    final HttpHeaders defaultHeaders;

    private ManagedRequest(
            Warden warden,
            String method,
            String url,
            URI uri,
            Duration appTimeout,
            boolean bodyRepeatable,
            boolean recordsBody,
            HttpHeaders defaultHeaders) {
        this.warden = warden;
        this.recordsBody = recordsBody;
        this.method = method;
        this.defaultHeaders = defaultHeaders;
        this.url = url;
        this.uri = uri;
        this.appTimeout = appTimeout;
        this.bodyRepeatable = bodyRepeatable;
    }

    /**
     * The request of {@code config}, or null when the agent leaves it alone: outside every API, a
     * WebSocket, or a URL known only when the request is subscribed ({@code uri(Mono)}). A body
     * function that {@code recorded} accepts is put behind a {@link RecordedBodyFunction} in
     * {@code config}, which is this request's own (Reactor Netty copies the configuration at every
     * step of building a request, and reads the function at each subscription).
     */
    static ManagedRequest of(HttpClientConfig config, Wardens wardens, Predicate<Object> recorded, Uris uris) {
        if (config.websocketClientSpec() != null) {
            return null;
        }
        String url = url(config.uri(), config.baseUrl());
        if (url == null) {
            return null;
        }
        URI uri;
        try {
            uri = uris.parse(url);
        } catch (IllegalArgumentException e) {
            // Reactor Netty refuses it too, as without the agent.
            return null;
        }
        Warden warden = wardens.forRequest(uri);
        if (warden == null) {
            return null;
        }
        HttpHeaders headers = defaultHeaders(config);
        return new ManagedRequest(
                warden,
                config.method().name(),
                url,
                uri,
                config.responseTimeout(),
                repeatable(config),
                recordBody(config, recorded),
                headers);
    }

    /** The absolute URL Reactor Netty resolves the request's URI to, or null when it is not an http(s) URL known now. */
    static String url(String uri, String baseUrl) {
        if (uri == null) {
            return null;
        }
        if (absolute(uri)) {
            return uri;
        }
        if (baseUrl == null || !uri.startsWith("/") || !absolute(baseUrl)) {
            return null;
        }
        return baseUrl.endsWith("/") ? baseUrl + uri.substring(1) : baseUrl + uri;
    }

    private static boolean absolute(String url) {
        return url.regionMatches(true, 0, "http://", 0, 7) || url.regionMatches(true, 0, "https://", 0, 8);
    }

    /**
     * Whether sending the request again sends the same body. Reactor Netty takes a body as a
     * function that writes it, and calls it again itself to follow a redirect and to retry on a
     * connection reset; a function of the app's (Spring's {@code WebClient} and {@code RestClient}
     * included) writes its body anew on each call. A publisher handed over once
     * ({@code send(Publisher)}, {@code sendForm}) may be hot, or hold buffers that Netty releases
     * once they are written: never resent. A body the agent cannot see is not resent either.
     */
    private static boolean repeatable(HttpClientConfig config) {
        if (BODY == null) {
            return false;
        }
        Object body;
        try {
            body = BODY.get(config);
        } catch (IllegalAccessException | RuntimeException e) {
            return false;
        }
        return body == null || !body.getClass().getName().startsWith(LIBRARY_BODY);
    }

    /**
     * Puts the request's body function behind a {@link RecordedBodyFunction} when {@code recorded} accepts
     * it; never a function that Reactor Netty itself looks at (a {@code RedirectSendHandler}).
     */
    private static boolean recordBody(HttpClientConfig config, Predicate<Object> recorded) {
        if (BODY == null) {
            return false;
        }
        try {
            Object body = BODY.get(config);
            if (body instanceof RecordedBodyFunction) {
                return true;
            }
            if (body == null || body instanceof HttpClient.RedirectSendHandler || !recorded.test(body)) {
                return false;
            }
            @SuppressWarnings("unchecked")
            BiFunction<? super HttpClientRequest, ? super NettyOutbound, ? extends Publisher<Void>> app =
                    (BiFunction<? super HttpClientRequest, ? super NettyOutbound, ? extends Publisher<Void>>) body;
            BODY.set(config, new RecordedBodyFunction(app));
            return true;
        } catch (IllegalAccessException | RuntimeException e) {
            return false;
        }
    }

    /**
     * The client's own headers (a copy), or null when it has none. {@code config.headers()} copies them on every
     * request, about a tenth of what managing a call allocated; most clients set none, which the field tells without
     * a copy.
     */
    private static HttpHeaders defaultHeaders(HttpClientConfig config) {
        if (HEADERS != null) {
            try {
                HttpHeaders own = (HttpHeaders) HEADERS.get(config);
                if (own == null || own.isEmpty()) {
                    return null;
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // Read through the copy below.
            }
        }
        HttpHeaders headers = config.headers();
        return headers == null || headers.isEmpty() ? null : headers;
    }

    private static Field configField(String name) {
        try {
            Field f = HttpClientConfig.class.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The URI of the last URL asked for, kept: an app calls the same few URLs again and again, and parsing one
     * anew cost about a tenth of what managing a call allocated. One entry, replaced as a whole, so any thread
     * reads a URL and its own URI.
     */
    static final class Uris {
        private volatile Parsed last;

        URI parse(String url) {
            Parsed p = last;
            if (p != null && p.url.equals(url)) {
                return p.uri;
            }
            URI uri = URI.create(url);
            last = new Parsed(url, uri);
            return uri;
        }

        private static final class Parsed {
            final String url;
            final URI uri;

            Parsed(String url, URI uri) {
                this.url = url;
                this.uri = uri;
            }
        }
    }

    /** The method and URL only: the URL may carry a query the app considers private, but no token of the agent's. */
    @Override
    public String toString() {
        return method + " " + uri.getScheme() + "://" + uri.getRawAuthority() + uri.getRawPath();
    }
}
