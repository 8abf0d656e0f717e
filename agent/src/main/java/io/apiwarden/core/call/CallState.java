package io.apiwarden.core.call;

/**
 * What one logical call has used up so far. Owned by one call; its attempts run one after the
 * other, never at once, so it needs no locking beyond safe publication between threads, which
 * the futures that chain the attempts provide.
 */
public final class CallState {
    private int refreshes;
    private int rateLimitRetries;

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
