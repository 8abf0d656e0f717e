package io.apiwarden.core.config;

import io.apiwarden.core.token.TokenText;

/** Whether an API's tokens, credentials and token endpoint fit the grant together. */
final class TokenChecks {
    private final SectionReader r;
    private final ApiSettings api;

    TokenChecks(SectionReader r, ApiSettings api) {
        this.r = r;
        this.api = api;
    }

    void check() {
        if (api.clientSecret != null
                && api.clientId == null
                && !api.grant.type().equals("client_credentials")) {
            r.problems()
                    .add(r.key(ConfigProperty.CLIENT_SECRET) + " is set without " + r.where(ConfigProperty.CLIENT_ID)
                            + ": set the client id too");
        }
        if (!api.clientAuthentication.secretBased()) {
            checkKeyBased();
        }
        if (api.clientId != null && !TokenText.isValid(api.clientId)) {
            r.problems().add(r.where(ConfigProperty.CLIENT_ID) + " contains spaces or control characters");
        }
        if (api.grant.type().equals("client_credentials")) {
            checkClientCredentials();
            return;
        }
        if (r.unusable(ConfigProperty.REFRESH_TOKEN) || r.unusable(ConfigProperty.ACCESS_TOKEN)) {
            return;
        }
        if (api.accessToken == null && api.refreshToken == null) {
            r.problems()
                    .add("no token is configured: set " + r.key(ConfigProperty.REFRESH_TOKEN) + " (or "
                            + r.key(ConfigProperty.REFRESH_TOKEN_FILE) + ") and " + r.key(ConfigProperty.AUTH_URL)
                            + ", or at least " + r.key(ConfigProperty.ACCESS_TOKEN));
        } else if (api.refreshToken != null && api.tokenUrl == null && noEndpointSet()) {
            r.problems()
                    .add(r.key(ConfigProperty.REFRESH_TOKEN) + " is set but there is no token endpoint: set "
                            + r.where(ConfigProperty.AUTH_URL) + " or " + r.key(ConfigProperty.TOKEN_URL));
        }
    }

    /** A key or certificate stands for the client: its id says which, and a secret would never be sent. */
    private void checkKeyBased() {
        String method = r.key(ConfigProperty.CLIENT_AUTH) + "=" + api.clientAuthentication.configValue();
        if (api.clientId == null) {
            r.problems().add(r.where(ConfigProperty.CLIENT_ID) + " is required with " + method + ": set the client id");
        }
        if (r.raw(ConfigProperty.CLIENT_SECRET) != null || r.raw(ConfigProperty.CLIENT_SECRET_FILE) != null) {
            r.problems()
                    .add(r.key(ConfigProperty.CLIENT_SECRET) + " is set, but " + method
                            + " sends no secret: unset it, or choose basic or post");
        }
    }

    private boolean noEndpointSet() {
        return r.raw(ConfigProperty.AUTH_URL) == null && r.raw(ConfigProperty.TOKEN_URL) == null;
    }

    /**
     * The client-credentials grant needs the client's id and secret (RFC 6749 section 4.4: confidential clients
     * only) and a token endpoint; a refresh token would never be used, so one set is a mistake.
     */
    private void checkClientCredentials() {
        String grantIs = " (" + r.key(ConfigProperty.GRANT) + " is client_credentials)";
        if (api.clientId == null) {
            r.problems()
                    .add(r.where(ConfigProperty.CLIENT_ID)
                            + " is required for the client_credentials grant: set the client id"
                            + " the token service issued");
        }
        if (api.clientSecret == null
                && !r.unusable(ConfigProperty.CLIENT_SECRET)
                && api.clientAuthentication.secretBased()) {
            r.problems()
                    .add(r.where(ConfigProperty.CLIENT_SECRET) + " (or " + r.key(ConfigProperty.CLIENT_SECRET_FILE)
                            + ") is required for the client_credentials grant: set the client secret");
        }
        if (api.tokenUrl == null && noEndpointSet()) {
            r.problems()
                    .add("there is no token endpoint for the client_credentials grant: set "
                            + r.where(ConfigProperty.AUTH_URL) + " or " + r.key(ConfigProperty.TOKEN_URL));
        }
        for (ConfigProperty p :
                new ConfigProperty[] {ConfigProperty.REFRESH_TOKEN, ConfigProperty.REFRESH_TOKEN_FILE}) {
            if (r.raw(p) != null) {
                r.problems()
                        .add(r.where(p) + " is set, but the client_credentials grant uses no refresh token" + grantIs
                                + ": unset it, or set " + r.key(ConfigProperty.GRANT) + "=refresh_token");
            }
        }
    }
}
