package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.call.BodyReplay;
import io.apiwarden.core.engine.RecordedBody;
import java.util.function.BiFunction;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.netty.NettyOutbound;
import reactor.netty.http.client.HttpClientRequest;

/**
 * Stands in a managed request's configuration for a body function that may write a body it cannot write
 * twice (Spring's, around an {@code InputStreamResource} or any one-shot body): a resend calls the
 * function again, and such a function would fail then. On a managed attempt, the first time the body
 * goes out it is recorded as it is written ({@link RecordingOutbound}); once the recording is whole, a
 * resend (and a redirect hop) runs the function on a {@link ReplayOutbound}, which sends the recording
 * instead of the function's publisher. A body over the bound, or one that cannot be recorded (a file),
 * is written by the function again, as without the recording. Outside a managed attempt (no
 * {@link AttemptSpec} in the request's context) the function runs as it is.
 */
final class RecordedBodyFunction implements BiFunction<HttpClientRequest, NettyOutbound, Publisher<Void>> {
    private final BiFunction<? super HttpClientRequest, ? super NettyOutbound, ? extends Publisher<Void>> app;

    RecordedBodyFunction(BiFunction<? super HttpClientRequest, ? super NettyOutbound, ? extends Publisher<Void>> app) {
        this.app = app;
    }

    @Override
    public Publisher<Void> apply(HttpClientRequest request, NettyOutbound outbound) {
        AttemptSpec spec = request.currentContextView().getOrDefault(AttemptSpec.KEY, null);
        RecordedBody recording = spec == null ? null : spec.recording;
        if (recording == null) {
            return app.apply(request, outbound);
        }
        BodyReplay replay = recording.replay();
        if (replay == BodyReplay.REPEATABLE) {
            java.util.List<java.nio.ByteBuffer> recorded;
            try {
                recorded = recording.buffers();
            } catch (IllegalStateException callEndedMeanwhile) {
                // The call ended (cancelled) between the check and now: the function writes its body as without the
                // agent.
                return app.apply(request, outbound);
            }
            ReplayOutbound replaying = new ReplayOutbound(outbound, recorded);
            Publisher<Void> written = app.apply(request, replaying);
            // The outbound handed back untouched: Reactor Netty sends the request without a body, as it would.
            return written == replaying ? outbound : written;
        }
        if (replay == BodyReplay.TOO_LARGE_TO_REPLAY) {
            return app.apply(request, outbound);
        }
        return record(request, outbound, recording.begin());
    }

    private Publisher<Void> record(HttpClientRequest request, NettyOutbound outbound, RecordedBody.Take take) {
        RecordingOutbound tee = new RecordingOutbound(outbound, take);
        Publisher<Void> written;
        try {
            written = app.apply(request, tee);
        } catch (RuntimeException | Error e) {
            take.abandon();
            throw e;
        }
        if (written == tee) {
            // Nothing sent through it: Reactor Netty sends the request without a body, as for the function's own
            // outbound.
            take.complete();
            return outbound;
        }
        return Mono.from(written)
                .doOnSuccess(done -> take.complete())
                .doOnError(e -> take.abandon())
                .doOnCancel(take::abandon);
    }

    /** The app's function, for the agent's log and tests; never its captured values. */
    @Override
    public String toString() {
        return "RecordedBodyFunction[" + app.getClass().getName() + "]";
    }
}
