package io.apiwarden.core.token;

import java.time.Duration;
import java.util.Optional;

/** A successful token response (RFC 6749 section 5.1). */
public final class TokenGrant {
    private final String accessToken;
    private final Duration expiresIn;
    private final String refreshToken;

    public TokenGrant(String accessToken, Duration expiresIn, String refreshToken) {
        if (accessToken == null || accessToken.isEmpty()) {
            throw new IllegalArgumentException("a token grant needs an access token");
        }
        this.accessToken = accessToken;
        this.expiresIn = expiresIn;
        this.refreshToken = refreshToken;
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
