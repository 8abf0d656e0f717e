package io.apiwarden.demo;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the simulated API saw and answered, for tests and the demo's report. Live values: each
 * getter reads the count at that moment.
 */
public final class ApiCounters {
    private final AtomicLong tokenRequests = new AtomicLong();
    private final AtomicLong tokensIssued = new AtomicLong();
    private final AtomicLong grantsRefused = new AtomicLong();
    private final AtomicLong apiRequests = new AtomicLong();
    private final AtomicLong unauthorized = new AtomicLong();
    private final AtomicLong forbidden = new AtomicLong();
    private final AtomicLong rateLimited = new AtomicLong();
    private final AtomicLong proxyErrors = new AtomicLong();

    /** Requests to the token endpoint, answered with a token or an error. */
    public long tokenRequests() {
        return tokenRequests.get();
    }

    /** Token requests that got a new access token (and a rotated refresh token). */
    public long tokensIssued() {
        return tokensIssued.get();
    }

    /** Token requests refused with {@code invalid_grant}: a refresh token that was used already, or revoked. */
    public long grantsRefused() {
        return grantsRefused.get();
    }

    /** Requests to the API base URL, as the edge proxy counts them: proxy errors included. */
    public long apiRequests() {
        return apiRequests.get();
    }

    /** 401 answers: missing, malformed or expired access token. */
    public long unauthorized() {
        return unauthorized.get();
    }

    /** 403 answers: valid access token with insufficient permissions. */
    public long forbidden() {
        return forbidden.get();
    }

    /** 429 answers while global throttling was in effect. */
    public long rateLimited() {
        return rateLimited.get();
    }

    /** 502 and 504 answers that the edge proxy produced itself. */
    public long proxyErrors() {
        return proxyErrors.get();
    }

    void recordTokenRequest() {
        tokenRequests.incrementAndGet();
    }

    void recordTokenIssued() {
        tokensIssued.incrementAndGet();
    }

    void recordGrantRefused() {
        grantsRefused.incrementAndGet();
    }

    void recordApiRequest() {
        apiRequests.incrementAndGet();
    }

    void recordUnauthorized() {
        unauthorized.incrementAndGet();
    }

    void recordForbidden() {
        forbidden.incrementAndGet();
    }

    void recordRateLimited() {
        rateLimited.incrementAndGet();
    }

    void recordProxyError() {
        proxyErrors.incrementAndGet();
    }

    @Override
    public String toString() {
        return "ApiCounters{tokenRequests=" + tokenRequests + ", tokensIssued=" + tokensIssued
                + ", apiRequests=" + apiRequests + ", unauthorized=" + unauthorized + ", forbidden=" + forbidden
                + ", rateLimited=" + rateLimited + ", proxyErrors=" + proxyErrors + "}";
    }
}
