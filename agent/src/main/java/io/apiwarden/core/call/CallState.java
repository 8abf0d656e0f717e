package io.apiwarden.core.call;

import java.time.Duration;

/**
 * What one logical call has used up so far. Owned by one call; its attempts run one after the
 * other, never at once, so it needs no locking beyond safe publication between threads, which
 * the futures that chain the attempts provide.
 */
public final class CallState {
    private final Deadline deadline;
    private final String method;
    private final String rawPath;
    private int refreshes;
    private int rateLimitRetries;
    private int nonceResends;
    /** Spent waiting so far: at the rate-limit gate and backing off. */
    private Duration waited = Duration.ZERO;

    private long tokenGeneration = -1;
    private long refusedGeneration = -1;

    /** A call with no time limit of its own, to a resource that is not told apart. */
    public CallState() {
        this(Deadline.NONE, "", "");
    }

    /**
     * A call that must be over by {@code deadline}, waits and resends included.
     *
     * @param method and {@code rawPath} (no query): the resource, which tells apart what a token
     *     may or may not touch
     */
    public CallState(Deadline deadline, String method, String rawPath) {
        this.deadline = deadline;
        this.method = method;
        this.rawPath = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
    }

    /** The method and path of the request, for remembering refusals. */
    public String requestKey() {
        // Built only when a refusal needs it, never on the way of an ordinary call.
        return method + " " + rawPath;
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

    /** How many times the call was resent with the API's DPoP nonce: at most once. */
    public int nonceResends() {
        return nonceResends;
    }

    /** How long the call has spent waiting so far: at the rate-limit gate, and backing off before its resends. */
    public Duration waited() {
        return waited;
    }

    /** The call waited {@code d} at the rate-limit gate. */
    public void waitedAtGate(Duration d) {
        waited = waited.plus(d);
    }

    /** How many times the call was resent. */
    public int resends() {
        return refreshes + rateLimitRetries + nonceResends;
    }

    /**
     * Continues {@code earlier}: the same logical call, which the client sends again as a request of
     * its own (Apache HttpClient's retry of a 429 the agent gave up on). What it used up stays used,
     * so the call still gets one refresh and one back-off in all.
     */
    public void continues(CallState earlier) {
        refreshes = earlier.refreshes;
        rateLimitRetries = earlier.rateLimitRetries;
        nonceResends = earlier.nonceResends;
        waited = earlier.waited;
        refusedGeneration = earlier.refusedGeneration;
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

    void countNonceResend() {
        nonceResends++;
    }

    /** Counts a rate-limit resend that waits {@code delay} first. */
    void countRateLimitRetry(Duration delay) {
        rateLimitRetries++;
        waited = waited.plus(delay);
    }
}
