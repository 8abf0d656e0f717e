package io.apiwarden.clients.apache5.library;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * A response body whose first bytes the agent has read to classify it: the app reads those bytes,
 * then the rest of the client's own stream, so that the end of the stream still releases the
 * connection as the client arranged.
 */
final class PeekedEntity extends HttpEntityWrapper {
    private final InputStream whole;

    PeekedEntity(HttpEntity original, byte[] head, InputStream rest) {
        super(original);
        this.whole = new SequenceInputStream(new ByteArrayInputStream(head), rest);
    }

    @Override
    public InputStream getContent() {
        return whole;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        try (InputStream in = whole) {
            in.transferTo(out);
        }
    }

    @Override
    public boolean isRepeatable() {
        return false;
    }

    @Override
    public boolean isStreaming() {
        return true;
    }

    @Override
    public void close() throws IOException {
        try {
            whole.close();
        } finally {
            super.close();
        }
    }
}
