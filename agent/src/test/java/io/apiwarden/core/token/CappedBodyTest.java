package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

class CappedBodyTest {
    /** Records what the subscriber asks of the client. */
    static final class RecordingSubscription implements Flow.Subscription {
        long requested;
        boolean cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private static List<ByteBuffer> chunk(String s) {
        return List.of(ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void aBodyWithinTheCapIsReadWholeOneChunkAtATime() {
        CappedBody body = CappedBody.keeping(10, -1);
        RecordingSubscription s = new RecordingSubscription();

        body.onSubscribe(s);
        assertThat(s.requested).isEqualTo(1);
        body.onNext(chunk("01234"));
        body.onNext(List.of(
                ByteBuffer.wrap("56".getBytes(StandardCharsets.US_ASCII)),
                ByteBuffer.wrap("789".getBytes(StandardCharsets.US_ASCII))));
        body.onComplete();

        assertThat(s.requested).isEqualTo(3);
        assertThat(s.cancelled).isFalse();
        assertThat(new String(body.getBody().toCompletableFuture().join(), StandardCharsets.US_ASCII))
                .isEqualTo("0123456789");
    }

    @Test
    void theChunkThatCrossesTheCapCancelsAndNothingMoreIsAskedFor() {
        CappedBody body = CappedBody.keeping(10, -1);
        RecordingSubscription s = new RecordingSubscription();
        body.onSubscribe(s);
        body.onNext(chunk("0123456"));

        body.onNext(chunk("7890"));
        body.onNext(chunk("late"));

        assertThat(s.cancelled).isTrue();
        assertThat(s.requested).isEqualTo(2);
        CompletableFuture<byte[]> result = body.getBody().toCompletableFuture();
        assertThat(result).isCompletedExceptionally();
        assertThat(result.handle((b, e) -> e)).isCompletedWithValueMatching(e -> e instanceof CappedBody.TooLarge);
    }

    @Test
    void aDeclaredLengthOverTheCapStopsBeforeAnyByteIsRead() {
        CappedBody body = CappedBody.keeping(10, 100L * 1024 * 1024);
        RecordingSubscription s = new RecordingSubscription();

        body.onSubscribe(s);

        assertThat(s.cancelled).isTrue();
        assertThat(s.requested).isZero();
        assertThat(body.getBody().toCompletableFuture()).isCompletedExceptionally();
    }

    @Test
    void aBodyThatDoesNotMatterIsDroppedAndEndsQuietlyAtTheCap() {
        HttpResponse.ResponseInfo serviceUnavailable = new HttpResponse.ResponseInfo() {
            @Override
            public int statusCode() {
                return 503;
            }

            @Override
            public HttpHeaders headers() {
                return HttpHeaders.of(Map.of(), (name, value) -> true);
            }

            @Override
            public HttpClient.Version version() {
                return HttpClient.Version.HTTP_1_1;
            }
        };
        HttpResponse.BodySubscriber<byte[]> body =
                CappedBody.handler(10, status -> status < 500).apply(serviceUnavailable);
        RecordingSubscription s = new RecordingSubscription();

        body.onSubscribe(s);
        body.onNext(chunk("0123456789abc"));

        assertThat(s.cancelled).isTrue();
        assertThat(body.getBody().toCompletableFuture()).isCompletedWithValueMatching(b -> b.length == 0);
    }

    @Test
    void aSecondSubscriptionIsCancelled() {
        CappedBody body = CappedBody.keeping(10, -1);
        RecordingSubscription first = new RecordingSubscription();
        RecordingSubscription second = new RecordingSubscription();

        body.onSubscribe(first);
        body.onSubscribe(second);

        assertThat(second.cancelled).isTrue();
        assertThat(first.cancelled).isFalse();
    }

    @Test
    void aFailureOfTheExchangeFailsTheBody() {
        CappedBody body = CappedBody.keeping(10, -1);
        body.onSubscribe(new RecordingSubscription());

        body.onError(new java.io.IOException("reset"));

        assertThat(body.getBody().toCompletableFuture()).isCompletedExceptionally();
    }
}
