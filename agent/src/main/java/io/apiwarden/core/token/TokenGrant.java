package io.apiwarden.core.token;

import java.time.Duration;
import java.util.Optional;

/** A successful token response (RFC 6749 section 5.1). */
public final class TokenGrant {
    private final String accessToken;
    private final Duration expiresIn;
    private final String refreshToken;
    private final String boundKey;

    /**
     * @throws IllegalArgumentException when a token is not one the agent may send (see
     *     {@link TokenText}); the message never quotes it
     */
    public TokenGrant(String accessToken, Duration expiresIn, String refreshToken) {
        this(accessToken, expiresIn, refreshToken, null);
    }

    private TokenGrant(String accessToken, Duration expiresIn, String refreshToken, String boundKey) {
        if (accessToken == null || accessToken.isEmpty()) {
            throw new IllegalArgumentException("a token grant needs an access token");
        }
        String flaw = TokenText.accessTokenFlaw(accessToken);
        if (flaw != null) {
            throw new IllegalArgumentException("the access token of a grant " + flaw);
        }
        flaw = refreshToken == null ? null : TokenText.flaw(refreshToken);
        if (flaw != null) {
            throw new IllegalArgumentException("the refresh token of a grant " + flaw);
        }
        this.accessToken = accessToken;
        this.expiresIn = expiresIn;
        this.refreshToken = refreshToken;
        this.boundKey = boundKey;
    }

    /** This grant, its access token bound to the DPoP key {@code thumbprint} (RFC 7638), or to none when null. */
    public TokenGrant boundTo(String thumbprint) {
        return thumbprint == null ? this : new TokenGrant(accessToken, expiresIn, refreshToken, thumbprint);
    }

    /** The JWK thumbprint of the DPoP key the token request was proved with, which the token is bound to; or null. */
    public String boundKey() {
        return boundKey;
    }

    public String accessToken() {
        return accessToken;
    }

    /** The lifetime the server gave ({@code expires_in}), when it gave one. */
    public Optional<Duration> expiresIn() {
        return Optional.ofNullable(expiresIn);
    }

    /** A new refresh token: the server rotated it and the old one may no longer work. */
    public Optional<String> refreshToken() {
        return Optional.ofNullable(refreshToken);
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "TokenGrant{expiresIn=" + expiresIn + ", rotatedRefreshToken=" + (refreshToken != null) + "}";
    }
}
