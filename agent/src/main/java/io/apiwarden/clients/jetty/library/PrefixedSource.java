package io.apiwarden.clients.jetty.library;

import java.nio.ByteBuffer;
import org.eclipse.jetty.io.Content;

/**
 * A response body as the app reads it after the agent held a prefix of it to classify it: the held
 * bytes first, then the rest of the body, unread until now ({@code rest}; null when the prefix is the
 * whole body).
 */
final class PrefixedSource implements Content.Source {
    private ByteBuffer prefix;
    private final Content.Source rest;

    PrefixedSource(ByteBuffer prefix, Content.Source rest) {
        this.prefix = prefix;
        this.rest = rest;
    }

    @Override
    public Content.Chunk read() {
        synchronized (this) {
            if (prefix != null) {
                ByteBuffer first = prefix;
                prefix = null;
                return Content.Chunk.from(first, rest == null);
            }
        }
        return rest == null ? Content.Chunk.EOF : rest.read();
    }

    @Override
    public void demand(Runnable demandCallback) {
        boolean now;
        synchronized (this) {
            now = prefix != null || rest == null;
        }
        if (now) {
            // Something to read at once: the held bytes, or the end.
            demandCallback.run();
        } else {
            rest.demand(demandCallback);
        }
    }

    @Override
    public void fail(Throwable failure) {
        if (rest != null) {
            rest.fail(failure);
        }
    }

    @Override
    public void fail(Throwable failure, boolean last) {
        if (rest != null) {
            rest.fail(failure, last);
        }
    }
}
