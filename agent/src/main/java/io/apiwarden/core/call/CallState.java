package io.apiwarden.core.call;

/**
 * What one logical call has used up so far. Owned by one call; its attempts run one after the
 * other, never at once, so it needs no locking beyond safe publication between threads, which
 * the futures that chain the attempts provide.
 */
public final class CallState {
    private final Deadline deadline;
    private int refreshes;
    private int rateLimitRetries;

    /** A call with no time limit of its own. */
    public CallState() {
        this(Deadline.NONE);
    }

    /** A call that must be over by {@code deadline}, waits and resends included. */
    public CallState(Deadline deadline) {
        this.deadline = deadline;
    }

    /** The app's own time limit for the whole call. */
    public Deadline deadline() {
        return deadline;
    }

    public int refreshes() {
        return refreshes;
    }

    public int rateLimitRetries() {
        return rateLimitRetries;
    }

    /** How many times the call was resent. */
    public int resends() {
        return refreshes + rateLimitRetries;
    }

    void countRefresh() {
        refreshes++;
    }

    void countRateLimitRetry() {
        rateLimitRetries++;
    }
}
