package io.apiwarden.core.token;

import io.apiwarden.core.token.store.TokenState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * How the agent obtains an access token from the token endpoint (RFC 6749): the strategy behind
 * the token manager. The single flight, expiry, the token store, refusal memory and telemetry
 * deal in {@link TokenState}s and never ask which grant filled them; only the few questions
 * below differ. (What one request returns is a {@link TokenGrant}.)
 *
 * <ul>
 *   <li>{@link #refreshToken}: the spec's grant. A request spends the state's refresh token, an
 *       answer may rotate it, and a refused one is dead until someone gives the agent another.
 *   <li>{@link #clientCredentials}: the client's own credentials (configuration, never in the
 *       state) are the grant (RFC 6749 section 4.4). A state holds no refresh token, and a
 *       refusal is the configuration's: it stays refused until a restart with other credentials.
 * </ul>
 */
public abstract class Grant {
    /**
     * What a client-credentials request "spends", for remembering a refusal: the credentials are
     * fixed for the JVM's life, so one key stands for them. Never sent, never a secret.
     */
    static final String CLIENT_CREDENTIALS_KEY = "<client credentials>";

    private final String scope;

    private Grant(String scope) {
        this.scope = scope;
    }

    /** The refresh-token grant; {@code scope} (space-separated, or null) is sent with each request when set. */
    public static Grant refreshToken(String scope) {
        return new RefreshTokenGrant(scope);
    }

    /** The client-credentials grant; {@code scope} (space-separated, or null) is sent with each request when set. */
    public static Grant clientCredentials(String scope) {
        return new ClientCredentialsGrant(scope);
    }

    /** The {@code grant_type} value, for the request and for log lines. */
    public abstract String type();

    /**
     * What, beside the token URL and client id, keeps this grant's tokens apart from another's in a
     * shared store: null for the refresh-token grant (its refresh token is the state's own, and the
     * keys of fleets already running stay as they are); the grant and scope for client credentials,
     * whose tokens are the client's and not a user's, and differ in rights by scope.
     */
    public abstract String storeIdentity();

    /** The scope sent with each request, or null. */
    public String scope() {
        return scope;
    }

    /**
     * What a token request from {@code state} spends, and what a permanent refusal is remembered
     * by: the refresh token, or one key for the configured client credentials. Null when the state
     * holds nothing to ask with.
     */
    abstract String credential(TokenState state);

    /** The parameters of a request with {@code credential} (from {@link #credential}), client authentication aside. */
    abstract String form(String credential);

    /** The value of {@code credential} that a server could echo and a message must never show, or null. */
    abstract String secretIn(String credential);

    /** Whether a refresh token in an answer is kept (and replaces the one before). */
    abstract boolean keepsRefreshTokens();

    /** The refresh token the state keeps after {@code grant}, issued from {@code base}. */
    final String refreshTokenAfter(TokenState base, TokenGrant grant) {
        // RFC 6749 section 6: a new refresh token replaces the old one, which may be revoked at once.
        return keepsRefreshTokens() ? grant.refreshToken().orElse(base.refreshToken()) : null;
    }

    /** Why no request can be made when {@link #credential} is null. */
    abstract String nothingToAskWith();

    /** What to do after the token endpoint refused this grant with {@code error}, an RFC 6749 code that cannot heal. */
    abstract String adviceAfterRefusal(String error);

    String withScope(StringBuilder form) {
        if (scope != null) {
            form.append("&scope=").append(URLEncoder.encode(scope, StandardCharsets.UTF_8));
        }
        return form.toString();
    }

    @Override
    public String toString() {
        return type() + (scope == null ? "" : " (scope " + scope + ")");
    }

    private static final class RefreshTokenGrant extends Grant {
        RefreshTokenGrant(String scope) {
            super(scope);
        }

        @Override
        public String type() {
            return "refresh_token";
        }

        @Override
        public String storeIdentity() {
            return null;
        }

        @Override
        String credential(TokenState state) {
            return state.refreshToken();
        }

        @Override
        String form(String refreshToken) {
            return withScope(new StringBuilder("grant_type=refresh_token&refresh_token=")
                    .append(URLEncoder.encode(refreshToken, StandardCharsets.UTF_8)));
        }

        @Override
        String secretIn(String refreshToken) {
            return refreshToken;
        }

        @Override
        boolean keepsRefreshTokens() {
            return true;
        }

        @Override
        String nothingToAskWith() {
            return "no refresh is possible: set apiwarden.refresh-token and apiwarden.auth-url";
        }

        @Override
        String adviceAfterRefusal(String error) {
            if (error.equals("invalid_scope")) {
                return "the token service refused the scope: check apiwarden.scope, then restart";
            }
            return "the refresh token or client credentials are no longer accepted: give the agent a new refresh token and restart";
        }
    }

    private static final class ClientCredentialsGrant extends Grant {
        ClientCredentialsGrant(String scope) {
            super(scope);
        }

        @Override
        public String type() {
            return "client_credentials";
        }

        @Override
        public String storeIdentity() {
            return scope() == null ? type() : type() + " " + scope();
        }

        @Override
        String credential(TokenState state) {
            return CLIENT_CREDENTIALS_KEY;
        }

        @Override
        String form(String credential) {
            return withScope(new StringBuilder("grant_type=client_credentials"));
        }

        @Override
        String secretIn(String credential) {
            return null;
        }

        @Override
        boolean keepsRefreshTokens() {
            // RFC 6749 section 4.4.3: none should be issued; one that is would never be used.
            return false;
        }

        @Override
        String nothingToAskWith() {
            return "no token request is possible: set apiwarden.client-id, apiwarden.client-secret and apiwarden.auth-url";
        }

        @Override
        String adviceAfterRefusal(String error) {
            switch (error) {
                case "invalid_scope":
                    return "the token service refused the scope: check apiwarden.scope, then restart";
                case "unauthorized_client":
                    return "this client may not use the client_credentials grant: allow it for the client at the token service,"
                            + " or set apiwarden.grant=refresh_token, then restart";
                case "unsupported_grant_type":
                    return "the token service does not offer the client_credentials grant: set apiwarden.grant=refresh_token, then restart";
                default:
                    return "the client credentials are not accepted: check apiwarden.client-id and apiwarden.client-secret"
                            + " (or apiwarden.client-secret-file) and apiwarden.client-auth, then restart";
            }
        }
    }
}
