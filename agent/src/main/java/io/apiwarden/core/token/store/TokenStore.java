package io.apiwarden.core.token.store;

import java.io.Closeable;
import java.time.Duration;

/**
 * Where the token state of one OAuth client lives when several JVMs share the client, and who
 * may refresh it. The primitives only: the refresh protocol built on them (read, lease, re-read,
 * refresh, compare-and-set, adopt) is the token manager's.
 *
 * <p>Every method returns or fails within the store's own time-out: a store that cannot answer
 * in time throws {@link StoreUnavailableException}, and the caller carries on with what it has.
 * Implementations are thread-safe.
 */
public interface TokenStore extends Closeable {
    /** The stored state, or null when the store holds none yet. */
    TokenState read() throws StoreUnavailableException;

    /**
     * Writes {@code next} if and only if the stored generation is still
     * {@code next.generation() - 1} (0 meaning nothing stored): a compare-and-set that refuses
     * a writer who missed another's write.
     *
     * @return true when written; false when the stored generation had moved on
     */
    boolean compareAndSet(TokenState next) throws StoreUnavailableException;

    /**
     * Takes the right to refresh for {@code ttl}, if nobody holds it; never waits.
     *
     * @return the lease, or null when another holder has it
     */
    Lease tryLease(Duration ttl) throws StoreUnavailableException;

    /** Where the state is kept, for log lines and spans: a path, or a host and port; never a credential. */
    String describe();

    /** Releases what the store holds open (connections, file handles); never throws. */
    @Override
    void close();

    /**
     * The right to refresh, held until it is released or its time-to-live runs out. A holder that
     * dies (kill -9) or stalls past the time-to-live never blocks the others for longer than it.
     */
    interface Lease {
        /**
         * Extends the lease by its time-to-live, from now.
         *
         * @return false when it had already run out and is no longer this holder's
         */
        boolean renew() throws StoreUnavailableException;

        /** Gives the right up, if this holder still has it; never throws. */
        void release();
    }
}
