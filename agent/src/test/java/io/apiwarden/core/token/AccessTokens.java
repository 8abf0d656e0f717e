package io.apiwarden.core.token;

/** Access tokens for the tests of other packages, which cannot make one. */
public final class AccessTokens {
    private AccessTokens() {}

    /** The token {@code value}, of generation 1, with no known expiry. */
    public static AccessToken of(String value) {
        return new AccessToken(value, 1, null, null);
    }

    /** As above, bound to the DPoP key of JWK thumbprint {@code boundKey} (none known when null). */
    public static AccessToken bound(String value, String boundKey) {
        return new AccessToken(value, 1, null, null, boundKey);
    }
}
