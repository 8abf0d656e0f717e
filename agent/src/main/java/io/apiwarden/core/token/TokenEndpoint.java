package io.apiwarden.core.token;

import java.util.concurrent.CompletableFuture;

/** Where new access tokens come from. */
public interface TokenEndpoint {
    /**
     * Requests a new access token with the refresh-token grant. Completes with a
     * {@link TokenRefreshException} on failure; never blocks the caller.
     */
    CompletableFuture<TokenGrant> refresh(String refreshToken);
}
