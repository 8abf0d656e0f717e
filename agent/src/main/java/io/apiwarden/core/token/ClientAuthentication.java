package io.apiwarden.core.token;

/**
 * How the client authenticates at the token endpoint, for any grant: with its id and secret (RFC 6749 section
 * 2.3.1), with a key ({@link #PRIVATE_KEY_JWT}) or with a certificate ({@link #TLS_CLIENT_AUTH}). HTTP Basic is the
 * one every server must accept; the form fields are for servers that accept only them, or that read a Basic header
 * without form-decoding it (a secret with {@code +}, {@code :} or {@code %} then fails in Basic alone).
 */
public enum ClientAuthentication {
    /** {@code Authorization: Basic base64(urlencode(id):urlencode(secret))}: {@code client_secret_basic}. */
    BASIC("basic"),
    /** {@code client_id} and {@code client_secret} in the request body: {@code client_secret_post}. */
    POST("post"),
    /** A JWT signed with the client's private key, made for each request (RFC 7523 section 2.2). */
    PRIVATE_KEY_JWT("private_key_jwt"),
    /** A client certificate from a CA the token service trusts, in the TLS handshake (RFC 8705 section 2.1). */
    TLS_CLIENT_AUTH("tls_client_auth"),
    /** A self-signed client certificate the token service has on file (RFC 8705 section 2.2). */
    SELF_SIGNED_TLS_CLIENT_AUTH("self_signed_tls_client_auth");

    private final String configValue;

    ClientAuthentication(String configValue) {
        this.configValue = configValue;
    }

    /** Whether the client proves itself with a certificate in the TLS handshake, not in the request. */
    public boolean certificateBased() {
        return this == TLS_CLIENT_AUTH || this == SELF_SIGNED_TLS_CLIENT_AUTH;
    }

    /** Whether a client secret authenticates the client. */
    public boolean secretBased() {
        return this == BASIC || this == POST;
    }

    /** The value of {@code apiwarden.client-auth} that selects it. */
    public String configValue() {
        return configValue;
    }
}
