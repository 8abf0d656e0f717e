package io.apiwarden.core.engine;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * How a blocking adapter whose responses hold a pooled connection lets go of one the app will not get
 * ({@link Attempt#discard}): a short body is read to its end so the connection goes back to the pool;
 * closing an unread one drops the connection, which is cheaper than reading much.
 */
public final class Discard {
    /** A discarded response's body is read to its end only when it declares itself this short. */
    static final long DRAIN_LIMIT = 64 * 1024;

    /** Reads a body to its end. */
    public interface Drain {
        void drain() throws IOException;
    }

    private Discard() {}

    /**
     * Drains the body when its declared {@code length} is known and short, then closes {@code response};
     * never throws.
     */
    public static void drainShortThenClose(LongSupplier length, Drain body, Closeable response) {
        try {
            long declared = length.getAsLong();
            if (declared >= 0 && declared <= DRAIN_LIMIT) {
                body.drain();
            }
        } catch (IOException | RuntimeException e) {
            // The connection is dropped below instead.
        }
        closeQuietly(response);
    }

    /** Closes {@code response}, ignoring a failure: there is nothing more to free. */
    public static void closeQuietly(Closeable response) {
        try {
            response.close();
        } catch (IOException | RuntimeException e) {
            // Nothing more to free.
        }
    }
}
