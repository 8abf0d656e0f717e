package io.apiwarden.demo;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The tokens of the simulated API: access tokens with an expiry, and one refresh token that is
 * rotated on every use (the old one stops working, as with providers that rotate refresh tokens).
 * Thread-safe.
 */
final class TokenStore {
    /** 32 random bytes: as hard to guess as real tokens. */
    private static final int TOKEN_BYTES = 32;

    private static final String ACCESS_PREFIX = "at_";
    private static final String REFRESH_PREFIX = "rt_";
    /** What an issued access token looks like: the prefix and 43 base64url characters (32 bytes, no padding). */
    private static final Pattern ACCESS_TOKEN_SHAPE = Pattern.compile("at_[A-Za-z0-9_-]{43}");

    /** Why an access token is accepted or not; the reasons are the spec's conditions. */
    enum Check {
        VALID(null),
        EXPIRED("expired"),
        MALFORMED("malformed");

        final String reason;

        Check(String reason) {
            this.reason = reason;
        }
    }

    /** The answer to a successful refresh. */
    static final class Issued {
        final String accessToken;
        final String refreshToken;

        Issued(String accessToken, String refreshToken) {
            this.accessToken = accessToken;
            this.refreshToken = refreshToken;
        }
    }

    private final SecureRandom random = new SecureRandom();
    private final Clock clock;
    private final Duration lifetime;
    private final Map<String, Instant> accessTokenExpiry = new HashMap<>();
    private String refreshToken;

    TokenStore(Clock clock, Duration lifetime) {
        this.clock = clock;
        this.lifetime = lifetime;
        this.refreshToken = newToken(REFRESH_PREFIX);
    }

    /** Swaps a valid refresh token for a new access token and a new refresh token; empty when it is not valid. */
    synchronized Optional<Issued> refresh(String presentedRefreshToken) {
        if (!sameToken(presentedRefreshToken, refreshToken)) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        // Expired tokens are answered "expired" whether remembered or not, so forgetting them keeps the map small.
        accessTokenExpiry.values().removeIf(expiry -> !now.isBefore(expiry));
        String accessToken = newToken(ACCESS_PREFIX);
        accessTokenExpiry.put(accessToken, now.plus(lifetime));
        refreshToken = newToken(REFRESH_PREFIX);
        return Optional.of(new Issued(accessToken, refreshToken));
    }

    /**
     * Checks an access token. A well-formed token that the store does not know is answered as expired:
     * the store forgets tokens once they expire, and a server cannot tell a forged token from a forgotten one.
     */
    synchronized Check check(String accessToken) {
        if (accessToken == null || !ACCESS_TOKEN_SHAPE.matcher(accessToken).matches()) {
            return Check.MALFORMED;
        }
        Instant expiry = accessTokenExpiry.get(accessToken);
        return expiry != null && clock.instant().isBefore(expiry) ? Check.VALID : Check.EXPIRED;
    }

    synchronized String currentRefreshToken() {
        return refreshToken;
    }

    /** A well-formed access token this store does not know: to the API, one that expired long ago. */
    synchronized String staleAccessToken() {
        return newToken(ACCESS_PREFIX);
    }

    synchronized void revokeRefreshTokens() {
        refreshToken = newToken(REFRESH_PREFIX);
    }

    synchronized void expireAllAccessTokens() {
        accessTokenExpiry.clear();
    }

    private String newToken(String prefix) {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** Compares in constant time, as a real server would, so timing does not leak the token. */
    private static boolean sameToken(String presented, String expected) {
        return presented != null
                && MessageDigest.isEqual(
                        presented.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
    }
}
