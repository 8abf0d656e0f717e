package io.apiwarden.core.token;

/**
 * How the client id and secret reach the token endpoint (RFC 6749 section 2.3.1), for any grant.
 * HTTP Basic is the one every server must accept; the form fields are for servers that accept
 * only them, or that read a Basic header without form-decoding it (a secret with {@code +},
 * {@code :} or {@code %} then fails in Basic alone).
 */
public enum ClientAuthentication {
    /** {@code Authorization: Basic base64(urlencode(id):urlencode(secret))}: {@code client_secret_basic}. */
    BASIC("basic"),
    /** {@code client_id} and {@code client_secret} in the request body: {@code client_secret_post}. */
    POST("post");

    private final String configValue;

    ClientAuthentication(String configValue) {
        this.configValue = configValue;
    }

    /** The value of {@code apiwarden.client-auth} that selects it. */
    public String configValue() {
        return configValue;
    }
}
