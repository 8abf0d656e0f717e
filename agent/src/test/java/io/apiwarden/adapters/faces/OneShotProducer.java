package io.apiwarden.adapters.faces;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/** An Apache HttpClient 5 async request body that can be produced once only: a second production sends nothing. */
public final class OneShotProducer implements AsyncEntityProducer {
    private final ByteBuffer bytes;

    public OneShotProducer(String text) {
        this.bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public boolean isRepeatable() {
        return false;
    }

    @Override
    public void failed(Exception cause) {}

    @Override
    public long getContentLength() {
        return -1;
    }

    @Override
    public String getContentType() {
        return "application/json";
    }

    @Override
    public String getContentEncoding() {
        return null;
    }

    @Override
    public boolean isChunked() {
        return true;
    }

    @Override
    public Set<String> getTrailerNames() {
        return null;
    }

    @Override
    public int available() {
        return bytes.remaining();
    }

    @Override
    public void produce(DataStreamChannel channel) throws IOException {
        if (bytes.hasRemaining()) {
            channel.write(bytes);
        }
        if (!bytes.hasRemaining()) {
            channel.endStream();
        }
    }

    @Override
    public void releaseResources() {}
}
