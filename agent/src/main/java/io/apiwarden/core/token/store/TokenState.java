package io.apiwarden.core.token.store;

import java.time.Instant;
import java.util.Objects;

/**
 * The token state of one OAuth client as a {@link TokenStore} keeps it: both tokens together,
 * so that a reader never pairs an access token with a refresh token of another refresh, and a
 * generation that grows by one with every write. Immutable; never shows a token.
 */
public final class TokenState {
    private final long generation;
    private final String accessToken;
    private final Instant expiresAt;
    private final Instant obtainedAt;
    private final String refreshToken;

    /**
     * @param generation 1 for the first state written, then one more with each write; 0 for the
     *     configured tokens of a JVM that has not met a store yet (never stored)
     * @param accessToken the access token, or null when none is known
     * @param expiresAt when it stops working, or null when the server did not say
     * @param obtainedAt when it was issued, or null when not known
     * @param refreshToken the refresh token to use next, or null when none is known
     */
    public TokenState(long generation, String accessToken, Instant expiresAt, Instant obtainedAt, String refreshToken) {
        if (generation < 0) {
            throw new IllegalArgumentException("a generation is never negative");
        }
        this.generation = generation;
        this.accessToken = accessToken;
        this.expiresAt = expiresAt;
        this.obtainedAt = obtainedAt;
        this.refreshToken = refreshToken;
    }

    public long generation() {
        return generation;
    }

    /** The access token, or null. */
    public String accessToken() {
        return accessToken;
    }

    /** When the access token stops working, or null when unknown. */
    public Instant expiresAt() {
        return expiresAt;
    }

    /** When the access token was issued, or null when unknown. */
    public Instant obtainedAt() {
        return obtainedAt;
    }

    /** The refresh token to use for the next refresh, or null. */
    public String refreshToken() {
        return refreshToken;
    }

    /** The state after a refresh: the next generation, with the new tokens. */
    public TokenState next(String newAccessToken, Instant newExpiresAt, Instant newObtainedAt, String newRefreshToken) {
        return new TokenState(generation + 1, newAccessToken, newExpiresAt, newObtainedAt, newRefreshToken);
    }

    /** Same generation and same tokens; instants compared to the millisecond, as stores keep them. */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TokenState)) {
            return false;
        }
        TokenState other = (TokenState) o;
        return generation == other.generation
                && Objects.equals(accessToken, other.accessToken)
                && Objects.equals(refreshToken, other.refreshToken)
                && millis(expiresAt) == millis(other.expiresAt)
                && millis(obtainedAt) == millis(other.obtainedAt);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(generation);
    }

    private static long millis(Instant i) {
        return i == null ? Long.MIN_VALUE : i.toEpochMilli();
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "TokenState{generation=" + generation + ", accessToken=" + (accessToken == null ? "<none>" : "<set>")
                + ", expiresAt=" + expiresAt + ", refreshToken=" + (refreshToken == null ? "<none>" : "<set>") + "}";
    }
}
