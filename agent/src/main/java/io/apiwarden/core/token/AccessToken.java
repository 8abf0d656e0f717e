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
    private final Instant refreshAt;
    private final String boundKey;

    AccessToken(String value, long generation, Instant expiresAt, Instant refreshAt) {
        this(value, generation, expiresAt, refreshAt, null);
    }

    AccessToken(String value, long generation, Instant expiresAt, Instant refreshAt, String boundKey) {
        this.boundKey = boundKey;
        this.authorizationHeader = "Bearer " + value;
        this.generation = generation;
        this.expiresAt = expiresAt;
        this.refreshAt = refreshAt;
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

    boolean isExpired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    boolean isDueForRefresh(Instant now) {
        return refreshAt != null && !now.isBefore(refreshAt);
    }

    /** Never shows the token itself. */
    @Override
    public String toString() {
        return "AccessToken{generation=" + generation + ", expiresAt=" + expiresAt + "}";
    }
}
