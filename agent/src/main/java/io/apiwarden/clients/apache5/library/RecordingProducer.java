package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.engine.RecordedBody;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * The app's request body that the client cannot send twice, sent by the first attempt through a
 * tee: every byte the transport takes is recorded ({@link RecordedBody.Take}), and the recording is
 * whole when the body ends. Everything else is the app's producer's.
 */
final class RecordingProducer implements AsyncEntityProducer {
    private final AsyncEntityProducer app;
    private final RecordedBody.Take take;

    RecordingProducer(AsyncEntityProducer app, RecordedBody.Take take) {
        this.app = app;
        this.take = take;
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
        app.produce(new Tee(channel));
    }

    @Override
    public int available() {
        return app.available();
    }

    @Override
    public boolean isRepeatable() {
        return false;
    }

    @Override
    public void failed(Exception cause) {
        take.abandon();
        app.failed(cause);
    }

    @Override
    public void releaseResources() {
        app.releaseResources();
    }

    @Override
    public long getContentLength() {
        return app.getContentLength();
    }

    @Override
    public String getContentType() {
        return app.getContentType();
    }

    @Override
    public String getContentEncoding() {
        return app.getContentEncoding();
    }

    @Override
    public boolean isChunked() {
        return app.isChunked();
    }

    @Override
    public Set<String> getTrailerNames() {
        return app.getTrailerNames();
    }

    /** The transport's channel, recording what it takes. */
    private final class Tee implements DataStreamChannel {
        private final DataStreamChannel channel;

        Tee(DataStreamChannel channel) {
            this.channel = channel;
        }

        @Override
        public void requestOutput() {
            channel.requestOutput();
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            int from = src.position();
            int written = channel.write(src);
            if (written > 0) {
                ByteBuffer taken = src.duplicate();
                taken.limit(from + written);
                taken.position(from);
                take.add(taken);
            }
            return written;
        }

        @Override
        public void endStream() throws IOException {
            channel.endStream();
            take.complete();
        }

        @Override
        public void endStream(List<? extends Header> trailers) throws IOException {
            channel.endStream(trailers);
            if (trailers == null || trailers.isEmpty()) {
                take.complete();
            } else {
                // Trailers are not recorded: a body that has them is not sent again.
                take.abandon();
            }
        }
    }
}
