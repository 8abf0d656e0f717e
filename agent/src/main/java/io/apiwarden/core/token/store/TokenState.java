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
    /** The JWK thumbprint (RFC 7638) of the DPoP key the access token is bound to, or null when not bound or not known. */
    private final String boundKey;

    /**
     * @param generation 1 for the first state written, then one more with each write; 0 for the
     *     configured tokens of a JVM that has not met a store yet (never stored)
     * @param accessToken the access token, or null when none is known
     * @param expiresAt when it stops working, or null when the server did not say
     * @param obtainedAt when it was issued, or null when not known
     * @param refreshToken the refresh token to use next, or null when none is known
     */
    public TokenState(long generation, String accessToken, Instant expiresAt, Instant obtainedAt, String refreshToken) {
        this(generation, accessToken, expiresAt, obtainedAt, refreshToken, null);
    }

    /**
     * As above, with the access token bound to a DPoP key.
     *
     * @param boundKey the JWK thumbprint of the key the access token is bound to, or null
     */
    public TokenState(
            long generation,
            String accessToken,
            Instant expiresAt,
            Instant obtainedAt,
            String refreshToken,
            String boundKey) {
        if (generation < 0) {
            throw new IllegalArgumentException("a generation is never negative");
        }
        this.generation = generation;
        this.accessToken = accessToken;
        this.expiresAt = expiresAt;
        this.obtainedAt = obtainedAt;
        this.refreshToken = refreshToken;
        this.boundKey = boundKey;
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

    /**
     * The JWK thumbprint (RFC 7638) of the DPoP key the access token is bound to: recorded beside the token, so that
     * a JVM of the fleet holding another key does not send it with its own proofs. Null when not bound or not known.
     */
    public String boundKey() {
        return boundKey;
    }

    /** This state, its access token bound to the key {@code thumbprint} (or to none known, when null). */
    public TokenState boundTo(String thumbprint) {
        return new TokenState(generation, accessToken, expiresAt, obtainedAt, refreshToken, thumbprint);
    }

    /** This state with another generation, the same tokens and binding. */
    public TokenState withGeneration(long newGeneration) {
        return new TokenState(newGeneration, accessToken, expiresAt, obtainedAt, refreshToken, boundKey);
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
                && Objects.equals(boundKey, other.boundKey)
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
                + ", expiresAt=" + expiresAt + ", refreshToken=" + (refreshToken == null ? "<none>" : "<set>")
                + (boundKey == null ? "" : ", boundToAKey") + "}";
    }
}
