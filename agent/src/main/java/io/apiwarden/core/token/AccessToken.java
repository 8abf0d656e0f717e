package io.apiwarden.core.token;

import java.time.Instant;
import java.util.Optional;

/**
 * An access token and what is known of its life. Compared by identity: a refresh always makes a
 * new instance, even if a server were to hand back the same string.
 */
public final class AccessToken {
    /** {@code Bearer <token>}, built once: every managed call sends it. The token is kept only in it. */
    private final String authorizationHeader;

    private final long generation;
    private final Instant expiresAt;
    /**
     * {@link #expiresAt} and the time to refresh as epoch milliseconds ({@link Long#MAX_VALUE}: never), for the check
     * every managed call makes: reading the clock as a long makes no {@link Instant} per call.
     */
    private final long expiresAtMillis;

    private final long refreshAtMillis;
    private final String boundKey;

    AccessToken(String value, long generation, Instant expiresAt, Instant refreshAt) {
        this(value, generation, expiresAt, refreshAt, null);
    }

    AccessToken(String value, long generation, Instant expiresAt, Instant refreshAt, String boundKey) {
        this.boundKey = boundKey;
        this.authorizationHeader = "Bearer " + value;
        this.generation = generation;
        this.expiresAt = expiresAt;
        this.expiresAtMillis = epochMillis(expiresAt);
        this.refreshAtMillis = epochMillis(refreshAt);
    }

    /**
     * Rounded down: a token is taken as expired up to a millisecond early, never late. Beyond a long's
     * milliseconds (a date no server gives) it is never.
     */
    private static long epochMillis(Instant at) {
        if (at == null) {
            return Long.MAX_VALUE;
        }
        try {
            return at.toEpochMilli();
        } catch (ArithmeticException e) {
            return at.isBefore(Instant.EPOCH) ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** The token itself: for comparing with a stored one, and for a {@link SenderConstraint}'s header and proof. */
    public String value() {
        return authorizationHeader.substring("Bearer ".length());
    }

    /** The header value to send: {@code Bearer <token>}. */
    public String authorizationHeader() {
        return authorizationHeader;
    }

    /** 0 for the configured token; then the generation of the state it came with (one more per refresh, fleet-wide with a shared store). */
    public long generation() {
        return generation;
    }

    /**
     * The JWK thumbprint (RFC 7638) of the DPoP key the token is bound to, which every proof sent with it must be
     * signed with; null when not bound or not known (a configured token: the key held is assumed).
     */
    public String boundKey() {
        return boundKey;
    }

    /** When the server said the token stops working; empty when it did not say. */
    public Optional<Instant> expiresAt() {
        return Optional.ofNullable(expiresAt);
    }

    /** @param nowMillis the clock's {@link java.time.Clock#millis} */
    boolean isExpired(long nowMillis) {
        return nowMillis >= expiresAtMillis;
    }

    boolean isDueForRefresh(long nowMillis) {
        return nowMillis >= refreshAtMillis;
    }

    /** Never shows the token itself. */
    @Override
    public String toString() {
        return "AccessToken{generation=" + generation + ", expiresAt=" + expiresAt + "}";
    }
}
