package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpRequest;
import io.micronaut.http.client.DefaultHttpClientConfiguration;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Micronaut's HTTP client 4, built without an application context ({@code HttpClient.create(null, configuration)}):
 * {@code exchange(request, String.class)} as a subscription, cancelled by disposing it; an error status arrives as
 * Micronaut's {@code HttpClientResponseException}, whose response the app reads. {@code toBlocking()} and the
 * declarative clients are the same exchange with the app's thread parked on it. A streamed body is a publisher.
 */
public final class MicronautFace implements ClientFace {
    /** Why a streamed body is not resent after a refresh (the contract's RESEND_STREAMED_BODY). */
    public static final String STREAMED_BODY_NOT_RESENT = "a body publisher is subscribed by Micronaut for one send,"
            + " and may be hot or one-shot; Micronaut writes it object by object through its codecs, so no bytes can be"
            + " recorded below them (docs/architecture.md, Micronaut)";

    private final HttpClient client;

    public MicronautFace(HttpClient client) {
        this.client = client;
    }

    /** A client as the app builds one without a context, following redirects or not. */
    public static HttpClient plainClient(boolean followRedirects) {
        DefaultHttpClientConfiguration configuration = new DefaultHttpClientConfiguration();
        configuration.setFollowRedirects(followRedirects);
        return HttpClient.create(null, configuration);
    }

    @Override
    public boolean async() {
        return true;
    }

    @Override
    public Running start(Call call) {
        MutableHttpRequest<?> request;
        if (call.kind() == Body.REPEATABLE) {
            request = HttpRequest.create(io.micronaut.http.HttpMethod.parse(call.method()), call.url())
                    .body(call.body());
        } else if (call.kind() == Body.STREAMED) {
            request = HttpRequest.create(io.micronaut.http.HttpMethod.parse(call.method()), call.url())
                    .body(Mono.fromCallable(() -> call.body().getBytes(StandardCharsets.UTF_8)));
        } else {
            request = HttpRequest.create(io.micronaut.http.HttpMethod.parse(call.method()), call.url());
        }
        request.contentType(MediaType.APPLICATION_JSON_TYPE);
        CompletableFuture<Reply> outcome = new CompletableFuture<>();
        Disposable subscription = Mono.from(client.exchange(request, String.class))
                .subscribe(response -> outcome.complete(reply(response)), failure -> {
                    if (failure instanceof HttpClientResponseException) {
                        outcome.complete(reply(((HttpClientResponseException) failure).getResponse()));
                    } else {
                        outcome.completeExceptionally(failure);
                    }
                });
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                subscription.dispose();
                // A disposed subscriber hears nothing more: the app knows its call is over.
                outcome.completeExceptionally(new CancellationException("disposed"));
            }
        };
    }

    private static Reply reply(HttpResponse<?> response) {
        return new Reply(response.code(), response.getBody(String.class).orElse(""));
    }

    @Override
    public void close() {
        client.close();
    }
}
