package io.apiwarden.bench;

import io.ktor.client.HttpClientKt;
import io.ktor.client.engine.cio.CIO;
import io.ktor.client.request.HttpRequestBuilder;
import io.ktor.client.request.HttpRequestKt;
import io.ktor.client.statement.HttpResponse;
import io.ktor.client.statement.HttpResponseKt;
import io.ktor.client.statement.HttpStatement;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.vertx.core.Vertx;
import io.vertx.core.http.RequestOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import kotlin.Unit;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.GlobalScope;
import kotlinx.coroutines.future.FutureKt;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClients;
import org.apache.http.util.EntityUtils;
import org.eclipse.jetty.client.Request;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.RestTemplate;

/**
 * The app's calls through the clients real apps use beside the JDK client, OkHttp, Apache HttpClient 5 and Reactor
 * Netty (issue 21): {@code HttpURLConnection}, alone and under Spring's {@code new RestTemplate()}, Apache HttpClient 4,
 * Vert.x 4.5's {@code HttpClient}, Jetty 12's {@code HttpClient}, Micronaut 4's and Ktor 3's on its CIO engine. Like {@link AppCalls}: no retry or
 * refresh logic, the app's own bearer on API calls when it was given one; each call builds its request, as an app
 * does (an {@code HttpURLConnection} serves one request), reads the answer whole and gives its status. Only the
 * clients of the ways asked for are built, so that a measured JVM runs no idle event loop of another client.
 */
final class MoreAppCalls implements AutoCloseable {
    private final String appToken;
    private final RestTemplate restTemplate;
    private final CloseableHttpClient apache4;
    private final Vertx vertx;
    private final io.vertx.core.http.HttpClient vertxClient;
    private final org.eclipse.jetty.client.HttpClient jetty;
    private final io.micronaut.http.client.HttpClient micronaut;
    private final io.ktor.client.HttpClient ktor;

    MoreAppCalls(Set<AppCalls.Way> ways, String appToken) {
        this.appToken = appToken;
        // Spring's default request factory: a new HttpURLConnection per call, the stack of "new RestTemplate()".
        restTemplate = ways.contains(AppCalls.Way.REST_TEMPLATE) ? new RestTemplate() : null;
        apache4 = ways.contains(AppCalls.Way.APACHE4_EXECUTE) ? HttpClients.createDefault() : null;
        vertx = ways.contains(AppCalls.Way.VERTX) ? Vertx.vertx() : null;
        vertxClient = vertx == null ? null : vertx.createHttpClient();
        jetty = ways.contains(AppCalls.Way.JETTY_SEND) ? startedJetty() : null;
        micronaut = ways.contains(AppCalls.Way.MICRONAUT)
                ? io.micronaut.http.client.HttpClient.create(null, new DefaultHttpClientConfiguration())
                : null;
        // HttpClient(CIO), as a Kotlin app builds it.
        ktor = ways.contains(AppCalls.Way.KTOR_CIO)
                ? HttpClientKt.HttpClient(CIO.INSTANCE, config -> Unit.INSTANCE)
                : null;
    }

    private static org.eclipse.jetty.client.HttpClient startedJetty() {
        org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient();
        try {
            client.start();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty's client did not start", e);
        }
        return client;
    }

    private String bearer(boolean api) {
        return api && appToken != null ? "Bearer " + appToken : null;
    }

    /** A GET on a fresh {@code HttpURLConnection}, its body read to the end and closed so the connection is kept alive. */
    int httpUrlConnection(URI url, boolean api) {
        try {
            HttpURLConnection connection = (HttpURLConnection) url.toURL().openConnection();
            String bearer = bearer(api);
            if (bearer != null) {
                connection.setRequestProperty("Authorization", bearer);
            }
            int status = connection.getResponseCode();
            try (InputStream body = status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
                if (body != null) {
                    body.readAllBytes();
                }
            }
            return status;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code exchange} of a GET with a {@code byte[]} body; an error status is the app's to read, not an exception. */
    int restTemplate(URI url, boolean api) {
        HttpHeaders headers = new HttpHeaders();
        String bearer = bearer(api);
        if (bearer != null) {
            headers.set("Authorization", bearer);
        }
        try {
            return restTemplate
                    .exchange(url, HttpMethod.GET, new HttpEntity<Void>(headers), byte[].class)
                    .getStatusCode()
                    .value();
        } catch (HttpStatusCodeException e) {
            return e.getStatusCode().value();
        }
    }

    /** {@code execute} with a response handler, as with {@code HttpClients.createDefault()} in an older SDK. */
    int apache4Execute(URI url, boolean api) {
        HttpGet get = new HttpGet(url);
        String bearer = bearer(api);
        if (bearer != null) {
            get.setHeader("Authorization", bearer);
        }
        try {
            return apache4.execute(get, response -> {
                EntityUtils.consume(response.getEntity());
                return response.getStatusLine().getStatusCode();
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code request(options)}, {@code send()}, the body read whole: joined on the caller's thread, never an event loop. */
    int vertx(URI url, boolean api) {
        RequestOptions options = new RequestOptions().setAbsoluteURI(url.toString());
        String bearer = bearer(api);
        if (bearer != null) {
            options.putHeader("Authorization", bearer);
        }
        return vertxClient
                .request(options)
                .compose(request -> request.send())
                .compose(response -> response.body().map(body -> response.statusCode()))
                .toCompletionStage()
                .toCompletableFuture()
                .join();
    }

    /** The blocking {@code send()}, which buffers the answer. */
    int jettySend(URI url, boolean api) {
        Request request = jetty.newRequest(url);
        String bearer = bearer(api);
        if (bearer != null) {
            request.headers(headers -> headers.put("Authorization", bearer));
        }
        try {
            return request.send().getStatus();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("Jetty's call failed", e);
        }
    }

    /** {@code toBlocking().exchange(request, byte[].class)}: what a declarative {@code @Client} does under it. */
    int micronaut(URI url, boolean api) {
        MutableHttpRequest<?> request = HttpRequest.GET(url);
        String bearer = bearer(api);
        if (bearer != null) {
            request.header("Authorization", bearer);
        }
        try {
            return micronaut.toBlocking().exchange(request, byte[].class).code();
        } catch (HttpClientResponseException e) {
            return e.code();
        }
    }

    /**
     * {@code HttpStatement.execute}, then {@code bodyAsText}, each in a coroutine started from Java as a future, joined:
     * what a Kotlin app's {@code client.get(url).bodyAsText()} does in one coroutine.
     */
    int ktorCio(URI url, boolean api) {
        HttpRequestBuilder builder = new HttpRequestBuilder();
        HttpRequestKt.url(builder, url.toString());
        String bearer = bearer(api);
        if (bearer != null) {
            builder.getHeaders().append("Authorization", bearer);
        }
        HttpStatement statement = new HttpStatement(builder, ktor);
        return FutureKt.<HttpResponse>future(
                        GlobalScope.INSTANCE,
                        EmptyCoroutineContext.INSTANCE,
                        CoroutineStart.DEFAULT,
                        (scope, continuation) -> statement.execute(continuation))
                .thenCompose(response -> FutureKt.<String>future(
                                GlobalScope.INSTANCE,
                                EmptyCoroutineContext.INSTANCE,
                                CoroutineStart.DEFAULT,
                                (scope, continuation) ->
                                        HttpResponseKt.bodyAsText(response, StandardCharsets.UTF_8, continuation))
                        .thenApply(body -> response.getStatus().getValue()))
                // As the other ways: a call that hangs fails the measurement instead of holding the fork.
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    @Override
    public void close() {
        if (apache4 != null) {
            try {
                apache4.close();
            } catch (IOException e) {
                // Closing at the end of a measurement: nothing left to protect.
            }
        }
        if (vertx != null) {
            vertxClient.close();
            vertx.close()
                    .toCompletionStage()
                    .toCompletableFuture()
                    .orTimeout(10, TimeUnit.SECONDS)
                    .join();
        }
        if (jetty != null) {
            try {
                jetty.stop();
            } catch (Exception e) {
                // As above.
            }
        }
        if (micronaut != null) {
            micronaut.close();
        }
        if (ktor != null) {
            ktor.close();
        }
    }
}
