package io.apiwarden.clients.apache5.library;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Set;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * A resend of a body the client could not send twice, from what the first attempt recorded: the
 * same bytes, with the app's content type, coding and length.
 */
final class ReplayProducer implements AsyncEntityProducer {
    private final EntityDetails app;
    private final List<ByteBuffer> recorded;
    private final long length;
    // The transport produces on its I/O thread, one call at a time.
    private int next;
    private ByteBuffer current;
    private boolean ended;

    ReplayProducer(EntityDetails app, List<ByteBuffer> recorded) {
        this.app = app;
        this.recorded = recorded;
        long n = 0;
        for (ByteBuffer b : recorded) {
            n += b.remaining();
        }
        this.length = n;
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
        while (true) {
            if (current == null || !current.hasRemaining()) {
                if (next == recorded.size()) {
                    channel.endStream();
                    ended = true;
                    return;
                }
                current = recorded.get(next++).duplicate();
                continue;
            }
            channel.write(current);
            if (current.hasRemaining()) {
                // The channel is full; the transport asks again when it can take more.
                return;
            }
        }
    }

    @Override
    public int available() {
        long left = current == null ? 0 : current.remaining();
        for (int i = next; i < recorded.size(); i++) {
            left += recorded.get(i).remaining();
        }
        // Until the end is sent there is always something to produce, an empty body's end included.
        return ended ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, left));
    }

    @Override
    public boolean isRepeatable() {
        return true;
    }

    @Override
    public void failed(Exception cause) {
        // Nothing is held but the recording, which the call frees when it ends.
    }

    @Override
    public void releaseResources() {
        next = 0;
        current = null;
        ended = false;
    }

    @Override
    public long getContentLength() {
        return app.getContentLength() < 0 ? -1 : length;
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
        return null;
    }
}
