package io.apiwarden.clients.jdk.library;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Flow;
import org.junit.jupiter.api.Test;

class RelaySubscriptionTest {

    private static List<ByteBuffer> chunk(String s) {
        return List.of(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void replaysAHeldBodyIntoTheAppsSubscriber() {
        BodySubscriber<String> app = BodySubscribers.ofString(StandardCharsets.UTF_8);

        new RelaySubscription(app, List.of(chunk("hel"), chunk("lo")), null).start();

        assertThat(app.getBody().toCompletableFuture().join()).isEqualTo("hello");
    }

    @Test
    void deliversThePrefixThenTheRestAtTheAppsPaceAndOnlyAsksUpstreamForWhatIsWanted() {
        List<String> seen = new ArrayList<>();
        long[] upstreamAsked = {0};
        Flow.Subscription upstream = new Flow.Subscription() {
            @Override
            public void request(long n) {
                upstreamAsked[0] += n;
            }

            @Override
            public void cancel() {}
        };
        Flow.Subscription[] given = new Flow.Subscription[1];
        boolean[] completed = {false};
        Flow.Subscriber<List<ByteBuffer>> oneAtATime = new Flow.Subscriber<>() {
            @Override
            public void onSubscribe(Flow.Subscription s) {
                given[0] = s;
            }

            @Override
            public void onNext(List<ByteBuffer> item) {
                seen.add(StandardCharsets.UTF_8.decode(item.get(0)).toString());
            }

            @Override
            public void onError(Throwable t) {
                throw new AssertionError(t);
            }

            @Override
            public void onComplete() {
                completed[0] = true;
            }
        };
        RelaySubscription relay = new RelaySubscription(oneAtATime, List.of(chunk("a"), chunk("b")), upstream);
        relay.start();

        given[0].request(1);
        assertThat(seen).containsExactly("a");
        assertThat(upstreamAsked[0]).isZero();
        given[0].request(2);
        assertThat(seen).containsExactly("a", "b");
        assertThat(upstreamAsked[0]).isEqualTo(1);
        relay.onUpstreamNext(chunk("c"));
        relay.onUpstreamComplete();

        assertThat(seen).containsExactly("a", "b", "c");
        assertThat(completed[0]).isTrue();
    }
}
