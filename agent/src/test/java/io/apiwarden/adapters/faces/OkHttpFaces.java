package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSink;

/**
 * OkHttp: {@code execute} and {@code enqueue}, each cancelled with {@code Call.cancel()}. Enqueueing
 * and cancelling are given, since in library mode they go through {@code WardenOkHttp} where the
 * agent weaves {@code Call}'s own methods.
 */
public final class OkHttpFaces {
    private static final MediaType JSON = MediaType.get("application/json");

    private OkHttpFaces() {}

    /** The ways an app enqueues and cancels a call: {@code Call::enqueue} and {@code Call::cancel} with the agent. */
    public static final class CallMethods {
        final BiConsumer<Call, Callback> enqueue;
        final Consumer<Call> cancel;

        public CallMethods(BiConsumer<Call, Callback> enqueue, Consumer<Call> cancel) {
            this.enqueue = enqueue;
            this.cancel = cancel;
        }

        /** OkHttp's own, which the agent weaves. */
        public static CallMethods own() {
            return new CallMethods(Call::enqueue, Call::cancel);
        }
    }

    public static OkHttpClient.Builder builder(boolean followRedirects) {
        return new OkHttpClient.Builder().followRedirects(followRedirects).followSslRedirects(followRedirects);
    }

    public static ClientFace execute(OkHttpClient client, CallMethods methods) {
        return new Face(client, methods, false);
    }

    public static ClientFace enqueue(OkHttpClient client, CallMethods methods) {
        return new Face(client, methods, true);
    }

    private static final class Face implements ClientFace {
        private final OkHttpClient client;
        private final CallMethods methods;
        private final boolean async;

        Face(OkHttpClient client, CallMethods methods, boolean async) {
            this.client = client;
            this.methods = methods;
            this.async = async;
        }

        @Override
        public boolean async() {
            return async;
        }

        @Override
        public Running start(ClientFace.Call spec) {
            okhttp3.Call call = client.newCall(request(spec));
            if (!async) {
                return Blocking.start(
                        () -> {
                            try (Response r = call.execute()) {
                                return new Reply(r.code(), r.body().string());
                            }
                        },
                        thread -> methods.cancel.accept(call));
            }
            CompletableFuture<Reply> outcome = new CompletableFuture<>();
            methods.enqueue.accept(call, new Callback() {
                @Override
                public void onFailure(okhttp3.Call c, IOException e) {
                    outcome.completeExceptionally(e);
                }

                @Override
                public void onResponse(okhttp3.Call c, Response response) throws IOException {
                    try (Response r = response) {
                        outcome.complete(new Reply(r.code(), r.body().string()));
                    }
                }
            });
            return new Running() {
                @Override
                public CompletableFuture<Reply> outcome() {
                    return outcome;
                }

                @Override
                public void cancel() {
                    methods.cancel.accept(call);
                }
            };
        }

        /** Calls holding a dispatcher thread; an enqueued call waiting out a rate limit must hold none. */
        @Override
        public OptionalInt busyClientThreads() {
            return async ? OptionalInt.of(client.dispatcher().runningCallsCount()) : OptionalInt.empty();
        }

        @Override
        public void close() {
            client.dispatcher().executorService().shutdown();
            client.connectionPool().evictAll();
        }
    }

    private static Request request(ClientFace.Call call) {
        RequestBody body = null;
        if (call.kind() == ClientFace.Body.REPEATABLE) {
            body = RequestBody.create(call.body(), JSON);
        } else if (call.kind() == ClientFace.Body.STREAMED) {
            body = oneShot(call.body().getBytes(StandardCharsets.UTF_8));
        }
        return new Request.Builder().url(call.url()).method(call.method(), body).build();
    }

    /** A body written once, in pieces, with no declared length, as one piped from a stream: a second write fails. */
    private static RequestBody oneShot(byte[] bytes) {
        AtomicBoolean written = new AtomicBoolean();
        return new RequestBody() {
            @Override
            public MediaType contentType() {
                return JSON;
            }

            @Override
            public boolean isOneShot() {
                return true;
            }

            @Override
            public void writeTo(BufferedSink sink) throws IOException {
                if (!written.compareAndSet(false, true)) {
                    throw new IOException("this body was already written");
                }
                for (int i = 0; i < bytes.length; i += 1024) {
                    sink.write(bytes, i, Math.min(1024, bytes.length - i));
                    sink.flush();
                }
            }
        };
    }
}
