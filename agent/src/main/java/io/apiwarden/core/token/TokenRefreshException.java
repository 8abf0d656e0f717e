package io.apiwarden.core.token;

/**
 * A refresh failed. The message never holds a token: it names what went wrong and what to do.
 * Internal to the agent: the app never sees it, it gets the API's original response instead.
 */
public final class TokenRefreshException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean permanent;

    public TokenRefreshException(String message, boolean permanent) {
        super(message, null, false, false);
        this.permanent = permanent;
    }

    /**
     * True when retrying cannot help (RFC 6749 {@code invalid_grant}, {@code invalid_client}, ...):
     * the agent stops refreshing until it is given a new refresh token.
     */
    public boolean permanent() {
        return permanent;
    }
}
