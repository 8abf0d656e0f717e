package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import io.ktor.client.HttpClient;
import io.ktor.client.HttpClientKt;
import io.ktor.client.engine.HttpClientEngine;
import io.ktor.client.engine.cio.CIO;
import io.ktor.client.request.HttpRequestBuilder;
import io.ktor.client.request.HttpRequestKt;
import io.ktor.client.statement.HttpResponse;
import io.ktor.client.statement.HttpResponseKt;
import io.ktor.client.statement.HttpStatement;
import io.ktor.http.ContentType;
import io.ktor.http.HttpMethod;
import io.ktor.http.content.OutgoingContent;
import io.ktor.http.content.TextContent;
import io.ktor.utils.io.ByteChannelCtorKt;
import io.ktor.utils.io.ByteReadChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import kotlin.Unit;
import kotlin.coroutines.EmptyCoroutineContext;
import kotlinx.coroutines.CoroutineStart;
import kotlinx.coroutines.GlobalScope;
import kotlinx.coroutines.future.FutureKt;

/**
 * Ktor's client on its CIO engine, called from Java as Kotlin code calls it: {@code HttpStatement.execute()} in a
 * coroutine ({@code future { }}), then {@code bodyAsText()}; cancelled by cancelling that coroutine. A streamed body
 * is a {@code ReadChannelContent}, a channel Ktor reads once.
 */
public final class KtorFace implements ClientFace {
    /** Why a streamed body is not resent after a refresh (the contract's RESEND_STREAMED_BODY). */
    public static final String STREAMED_BODY_NOT_RESENT = "a channel or writer body (ReadChannelContent,"
            + " WriteChannelContent) is read by the engine once, by suspending code the agent (Java, no Kotlin"
            + " compiler) does not tee; only byte and text bodies are resent (docs/architecture.md, Ktor)";

    private final HttpClient client;

    private KtorFace(HttpClient client) {
        this.client = client;
    }

    /** A client on {@code engine} (a managed one, in library mode), following redirects or not. */
    public static KtorFace on(HttpClientEngine engine, boolean followRedirects) {
        return new KtorFace(HttpClientKt.HttpClient(engine, config -> {
            config.setFollowRedirects(followRedirects);
            return Unit.INSTANCE;
        }));
    }

    /** A client as the app builds one: {@code HttpClient(CIO) { followRedirects = ... }}. */
    public static KtorFace plain(boolean followRedirects) {
        return new KtorFace(HttpClientKt.HttpClient(CIO.INSTANCE, config -> {
            config.setFollowRedirects(followRedirects);
            return Unit.INSTANCE;
        }));
    }

    /** A CIO engine as {@code HttpClient(CIO)} makes one. */
    public static HttpClientEngine cioEngine() {
        return CIO.INSTANCE.create(config -> Unit.INSTANCE);
    }

    @Override
    public boolean async() {
        return true;
    }

    @Override
    public Running start(Call call) {
        HttpRequestBuilder builder = new HttpRequestBuilder();
        builder.setMethod(HttpMethod.Companion.parse(call.method()));
        HttpRequestKt.url(builder, call.url());
        if (call.kind() == Body.REPEATABLE) {
            builder.setBody(new TextContent(call.body(), ContentType.Application.INSTANCE.getJson(), null));
        } else if (call.kind() == Body.STREAMED) {
            builder.setBody(new StreamedBody(call.body().getBytes(StandardCharsets.UTF_8)));
        }
        HttpStatement statement = new HttpStatement(builder, client);
        // A call of a suspending function as the coroutine's last step passes the coroutine's continuation on.
        CompletableFuture<HttpResponse> response = FutureKt.future(
                GlobalScope.INSTANCE,
                EmptyCoroutineContext.INSTANCE,
                CoroutineStart.DEFAULT,
                (scope, continuation) -> statement.execute(continuation));
        CompletableFuture<Reply> outcome = response.thenCompose(r -> FutureKt.<String>future(
                        GlobalScope.INSTANCE,
                        EmptyCoroutineContext.INSTANCE,
                        CoroutineStart.DEFAULT,
                        (scope, continuation) -> HttpResponseKt.bodyAsText(r, StandardCharsets.UTF_8, continuation))
                .thenApply(text -> new Reply(r.getStatus().getValue(), text)));
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                // Cancels the coroutine running the call, as cancelling its Job would.
                response.cancel(false);
            }
        };
    }

    @Override
    public void close() {
        client.close();
    }

    /** A body the engine reads once from a channel. */
    private static final class StreamedBody extends OutgoingContent.ReadChannelContent {
        private final byte[] bytes;

        StreamedBody(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public ContentType getContentType() {
            return ContentType.Application.INSTANCE.getJson();
        }

        @Override
        public ByteReadChannel readFrom() {
            return ByteChannelCtorKt.ByteReadChannel(bytes, 0, bytes.length);
        }
    }
}
