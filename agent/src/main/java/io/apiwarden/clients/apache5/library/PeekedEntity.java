package io.apiwarden.clients.apache5.library;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.HttpEntityWrapper;

/**
 * A response body whose first bytes the agent has read to classify it, given back {@code whole}
 * ({@link io.apiwarden.core.engine.BodyPeek#peek}).
 */
final class PeekedEntity extends HttpEntityWrapper {
    private final InputStream whole;

    PeekedEntity(HttpEntity original, InputStream whole) {
        super(original);
        this.whole = whole;
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
