package io.apiwarden.core.token;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.function.IntPredicate;

/**
 * A response body read into memory up to a cap. Past the cap the subscription is cancelled, so
 * the client reads no more and closes the connection; a {@code Content-Length} over the cap
 * stops it before any byte is read. Bytes are asked for one chunk at a time, so nothing beyond
 * the chunk that crossed the cap is ever requested.
 */
final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
    /** The body was longer than the cap. Carries no content of the body. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(int limit) {
            super("the body is longer than " + limit + " bytes", null);
        }
    }

    private static final byte[] NONE = new byte[0];

    private final int limit;
    private final long declaredLength;
    private final boolean keep;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.Subscription subscription;
    private long seen;

    /**
     * @param keep false to count and drop the bytes: the body then completes empty, also when it
     *     is longer than the cap (for answers whose body does not matter)
     */
    private CappedBody(int limit, long declaredLength, boolean keep) {
        this.limit = limit;
        this.declaredLength = declaredLength;
        this.keep = keep;
    }

    /** Keeps the body of an answer for which {@code keep} holds; drops any other's, reading at most {@code limit} bytes. */
    static HttpResponse.BodyHandler<byte[]> handler(int limit, IntPredicate keep) {
        return new Handler(limit, keep);
    }

    /** A class, not a lambda: a JVM's first token request is often on its first call's way. */
    private static final class Handler implements HttpResponse.BodyHandler<byte[]> {
        private final int limit;
        private final IntPredicate keep;

        Handler(int limit, IntPredicate keep) {
            this.limit = limit;
            this.keep = keep;
        }

        @Override
        public HttpResponse.BodySubscriber<byte[]> apply(HttpResponse.ResponseInfo info) {
            return new CappedBody(limit, declaredLength(info), keep.test(info.statusCode()));
        }
    }

    /** A subscriber on its own, for tests. */
    static CappedBody keeping(int limit, long declaredLength) {
        return new CappedBody(limit, declaredLength, true);
    }

    private static long declaredLength(HttpResponse.ResponseInfo info) {
        try {
            return info.headers().firstValueAsLong("Content-Length").orElse(-1);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        Objects.requireNonNull(s);
        if (subscription != null) {
            s.cancel();
            return;
        }
        subscription = s;
        if (declaredLength > limit) {
            stop();
            return;
        }
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (body.isDone()) {
            return;
        }
        for (ByteBuffer b : items) {
            seen += b.remaining();
            if (seen > limit) {
                stop();
                return;
            }
            if (keep) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable t) {
        body.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
        body.complete(keep ? bytes.toByteArray() : NONE);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    private void stop() {
        subscription.cancel();
        if (keep) {
            body.completeExceptionally(new TooLarge(limit));
        } else {
            body.complete(NONE);
        }
    }
}
