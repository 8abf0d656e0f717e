package io.apiwarden.core.token;

import java.util.concurrent.CompletableFuture;

/** Where new access tokens come from, and by which {@link Grant}. */
public interface TokenEndpoint {
    /**
     * Requests a new access token. Completes with a {@link TokenRefreshException} on failure;
     * never blocks the caller.
     *
     * @param credential what the grant spends ({@link Grant#credential}): the refresh token for
     *     the refresh-token grant; a fixed key, never sent, for client credentials
     */
    CompletableFuture<TokenGrant> refresh(String credential);

    /**
     * From now on, every token request carries {@code proof}'s proof, and the tokens must be of its type (DPoP). An
     * endpoint that sends no requests of its own (a test's) has nothing to prove.
     */
    default void proveWith(TokenRequestProof proof) {}

    /** What the token requests carry ({@link #proveWith}); {@link TokenRequestProof#NONE} for bearer tokens. */
    default TokenRequestProof proof() {
        return TokenRequestProof.NONE;
    }

    /** The grant this endpoint makes; the refresh-token grant unless it says otherwise. */
    default Grant grant() {
        return Grant.refreshToken(null);
    }
}
