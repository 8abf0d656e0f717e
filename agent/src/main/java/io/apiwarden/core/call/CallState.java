package io.apiwarden.core.call;

/**
 * What one logical call has used up so far. Owned by one call; its attempts run one after the
 * other, never at once, so it needs no locking beyond safe publication between threads, which
 * the futures that chain the attempts provide.
 */
public final class CallState {
    private final Deadline deadline;
    private final String requestKey;
    private int refreshes;
    private int rateLimitRetries;
    private long tokenGeneration = -1;
    private long refusedGeneration = -1;

    /** A call with no time limit of its own, to a resource that is not told apart. */
    public CallState() {
        this(Deadline.NONE, "");
    }

    /**
     * A call that must be over by {@code deadline}, waits and resends included.
     *
     * @param requestKey the method and path of the request (no query), which tells apart the
     *     resources a token may or may not touch
     */
    public CallState(Deadline deadline, String requestKey) {
        this.deadline = deadline;
        this.requestKey = requestKey;
    }

    /** The key of a request for {@link #CallState(Deadline, String)}: method and path, no query. */
    public static String requestKey(String method, String rawPath) {
        return method + " " + (rawPath == null || rawPath.isEmpty() ? "/" : rawPath);
    }

    /** The method and path of the request, for remembering refusals. */
    public String requestKey() {
        return requestKey;
    }

    /** The generation of the agent's token on the attempt being sent, or -1 when it carries none. */
    public long tokenGeneration() {
        return tokenGeneration;
    }

    /** Records which generation of the agent's token the next attempt carries. */
    public void sendingToken(long generation) {
        tokenGeneration = generation;
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

    /** Counts a refresh of the token of generation {@code refused}. */
    void countRefresh(long refused) {
        refreshes++;
        refusedGeneration = refused;
    }

    /** The generation of the token that was refused before the call's refresh; -1 before any. */
    long refusedGeneration() {
        return refusedGeneration;
    }

    void countRateLimitRetry() {
        rateLimitRetries++;
    }
}
