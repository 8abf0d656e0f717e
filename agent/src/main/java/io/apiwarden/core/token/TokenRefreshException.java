package io.apiwarden.core.token;

/**
 * A refresh failed. The message never holds a token: it names what went wrong and what to do.
 * Internal to the agent: the app never sees it, it gets the API's original response instead.
 */
public final class TokenRefreshException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean permanent;
    /** The RFC 6749 error code of the token endpoint's refusal, or null. */
    private final String oauthError;

    public TokenRefreshException(String message, boolean permanent) {
        this(message, permanent, null);
    }

    TokenRefreshException(String message, boolean permanent, String oauthError) {
        super(message, null, false, false);
        this.permanent = permanent;
        this.oauthError = oauthError;
    }

    /** The token endpoint's RFC 6749 error code ({@code invalid_client}, ...), or null when it gave none or did not answer. */
    String oauthError() {
        return oauthError;
    }

    /**
     * True when retrying cannot help (RFC 6749 {@code invalid_grant}, {@code invalid_client}, ...):
     * the agent stops refreshing until it is given a new refresh token.
     */
    public boolean permanent() {
        return permanent;
    }
}
