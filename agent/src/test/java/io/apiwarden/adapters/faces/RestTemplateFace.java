package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.InputStreamResource;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestTemplate;

/**
 * Spring's {@code RestTemplate} on its default request factory ({@code SimpleClientHttpRequestFactory}, so
 * {@code HttpURLConnection}): {@code exchange} of a JSON body, with an error handler that lets 4xx and 5xx
 * through as responses (by default {@code RestTemplate} throws them). A streamed body is an
 * {@code InputStreamResource}, which Spring writes once, chunked. Cancelled by interrupting the app's thread:
 * {@code RestTemplate} has no cancel of its own.
 */
public final class RestTemplateFace implements ClientFace {
    private final RestTemplate template;

    public RestTemplateFace(RestTemplate template) {
        this.template = template;
        template.setErrorHandler(new NoOpResponseErrorHandler());
    }

    /** {@code new RestTemplate()} as an app makes it; not following redirects, on a factory set up for that. */
    public static RestTemplateFace plain(boolean followRedirects) {
        return new RestTemplateFace(
                followRedirects ? new RestTemplate() : new RestTemplate(requestFactory(false, null)));
    }

    /**
     * Spring's default factory as an app sets it up: following redirects as Spring does (for a GET) or never,
     * and opening its connections through {@code opener} when given (library mode's entry), else as Spring
     * does. The face never sets a proxy on it.
     */
    public static SimpleClientHttpRequestFactory requestFactory(
            boolean followRedirects, HttpUrlConnectionFace.Opener opener) {
        return new SimpleClientHttpRequestFactory() {
            @Override
            protected HttpURLConnection openConnection(URL url, Proxy proxy) throws IOException {
                return opener == null || proxy != null ? super.openConnection(url, proxy) : opener.open(url);
            }

            @Override
            protected void prepareConnection(HttpURLConnection connection, String httpMethod) throws IOException {
                super.prepareConnection(connection, httpMethod);
                if (!followRedirects) {
                    connection.setInstanceFollowRedirects(false);
                }
            }
        };
    }

    @Override
    public boolean async() {
        return false;
    }

    @Override
    public Running start(Call call) {
        HttpHeaders headers = new HttpHeaders();
        Object body = null;
        if (call.kind() != Body.NONE) {
            headers.setContentType(MediaType.APPLICATION_JSON);
            body = call.kind() == Body.STREAMED
                    ? new InputStreamResource(
                            new ByteArrayInputStream(call.body().getBytes(StandardCharsets.UTF_8)))
                    : call.body();
        }
        HttpEntity<Object> request = new HttpEntity<>(body, headers);
        return Blocking.start(
                () -> {
                    ResponseEntity<String> response = template.exchange(
                            URI.create(call.url()), HttpMethod.valueOf(call.method()), request, String.class);
                    return new Reply(
                            response.getStatusCode().value(), response.getBody() == null ? "" : response.getBody());
                },
                Thread::interrupt);
    }

    @Override
    public void close() {
        // Connections are the JDK's, kept alive in its own cache.
    }
}
