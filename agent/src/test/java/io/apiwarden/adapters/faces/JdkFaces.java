package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import io.apiwarden.it.apps.StreamedBody;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** The JDK's {@code HttpClient}: {@code send} (cancelled by interrupting the caller) and {@code sendAsync} (by cancelling its future). */
public final class JdkFaces {
    private JdkFaces() {}

    /** A client as the app builds it, following redirects or not. */
    public static HttpClient.Builder builder(boolean followRedirects) {
        return HttpClient.newBuilder()
                .followRedirects(followRedirects ? HttpClient.Redirect.NORMAL : HttpClient.Redirect.NEVER);
    }

    public static ClientFace send(HttpClient client) {
        return new Face(client, false);
    }

    public static ClientFace sendAsync(HttpClient client) {
        return new Face(client, true);
    }

    private static final class Face implements ClientFace {
        private final HttpClient client;
        private final boolean async;

        Face(HttpClient client, boolean async) {
            this.client = client;
            this.async = async;
        }

        @Override
        public boolean async() {
            return async;
        }

        @Override
        public Running start(Call call) {
            HttpRequest request = request(call);
            if (!async) {
                return Blocking.start(() -> reply(client.send(request, BodyHandlers.ofString())), Thread::interrupt);
            }
            CompletableFuture<HttpResponse<String>> sent = client.sendAsync(request, BodyHandlers.ofString());
            CompletableFuture<Reply> outcome = sent.thenApply(JdkFaces::reply);
            return new Running() {
                @Override
                public CompletableFuture<Reply> outcome() {
                    return outcome;
                }

                @Override
                public void cancel() {
                    sent.cancel(true);
                }
            };
        }

        @Override
        public void close() {
            // The JDK 17 client has no close(); its threads end when it is unreachable.
        }
    }

    private static HttpRequest request(ClientFace.Call call) {
        HttpRequest.BodyPublisher body;
        switch (call.kind()) {
            case REPEATABLE:
                body = BodyPublishers.ofString(call.body());
                break;
            case STREAMED:
                body = BodyPublishers.fromPublisher(StreamedBody.of(call.body().getBytes(StandardCharsets.UTF_8)));
                break;
            default:
                body = BodyPublishers.noBody();
        }
        return HttpRequest.newBuilder(URI.create(call.url()))
                .method(call.method(), body)
                .build();
    }

    private static ClientFace.Reply reply(HttpResponse<String> response) {
        return new ClientFace.Reply(response.statusCode(), response.body());
    }
}
