package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import io.netty.handler.codec.http.HttpMethod;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;

/**
 * Reactor Netty's {@code HttpClient}, read as Spring's {@code WebClient} reads it (status, then the
 * body from the connection, in {@code responseConnection}); a call is a subscription, cancelled by
 * disposing it. A body is either a function of the request (written anew on each subscription) or a
 * publisher handed over once.
 *
 * <p>{@code block()} is the same subscription with the app's thread parked on its result, so this one
 * face stands for both ways of calling.
 */
public final class ReactorNettyFace implements ClientFace {
    /** Why a streamed body is not resent after a refresh (the contract's RESEND_STREAMED_BODY). */
    public static final String STREAMED_BODY_NOT_RESENT =
            "a body publisher handed over once may be hot, or hold buffers Netty"
                    + " released after the first write; a body function is written anew on each subscription instead"
                    + " (docs/architecture.md, Reactor Netty)";

    private final HttpClient client;
    private final UnaryOperator<HttpClient> manage;
    private final Runnable close;

    /**
     * @param manage what makes a request managed: with the agent nothing (it weaves the client); in library
     *               mode the glue put in the request's way
     * @param close  frees the client's pool and loops
     */
    public ReactorNettyFace(HttpClient client, UnaryOperator<HttpClient> manage, Runnable close) {
        this.client = client;
        this.manage = manage;
        this.close = close;
    }

    @Override
    public boolean async() {
        return true;
    }

    @Override
    public Running start(Call call) {
        HttpClient.RequestSender sender =
                client.request(HttpMethod.valueOf(call.method())).uri(call.url());
        HttpClient.ResponseReceiver<?> request = sender;
        if (call.kind() == Body.REPEATABLE) {
            request = sender.send((req, out) -> out.sendString(Mono.just(call.body())));
        } else if (call.kind() == Body.STREAMED) {
            request = sender.send(ByteBufFlux.fromString(Mono.just(call.body())));
        }
        HttpClient.ResponseReceiver<?> managed = (HttpClient.ResponseReceiver<?>) manage.apply((HttpClient) request);
        Mono<Reply> reply = managed.responseConnection((response, connection) -> connection
                        .inbound()
                        .receive()
                        .aggregate()
                        .asString()
                        .defaultIfEmpty("")
                        .map(body -> new Reply(response.status().code(), body)))
                .next();
        CompletableFuture<Reply> outcome = new CompletableFuture<>();
        Disposable subscription = reply.subscribe(outcome::complete, outcome::completeExceptionally);
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                subscription.dispose();
                // A disposed subscriber hears nothing more, by the Reactive Streams rules: the app knows its call is
                // over.
                outcome.completeExceptionally(new CancellationException("disposed"));
            }
        };
    }

    @Override
    public void close() {
        close.run();
    }
}
