package io.apiwarden.core.token;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;

/**
 * What a sender-constrained token (DPoP) adds to the agent's token requests: a proof on each request, a nonce the
 * token endpoint may demand, and the token type it must answer with. {@link #NONE} for bearer tokens.
 */
public interface TokenRequestProof {
    /** Bearer tokens: nothing added, a {@code Bearer} token type (or none) expected. */
    TokenRequestProof NONE = new TokenRequestProof() {
        @Override
        public void prove(HttpRequest.Builder request, URI tokenUrl) {}

        @Override
        public boolean demandsNonce(int status, HttpHeaders headers, byte[] body) {
            return false;
        }

        @Override
        public String tokenType() {
            return null;
        }
    };

    /** Adds the proof of one POST to {@code tokenUrl}: a new one for every request sent, resends included. */
    void prove(HttpRequest.Builder request, URI tokenUrl);

    /**
     * Learns from an answer of the token endpoint (its {@code DPoP-Nonce}); true when the answer is the demand for
     * a nonce ({@code use_dpop_nonce}) that a new request with that nonce answers.
     */
    boolean demandsNonce(int status, HttpHeaders headers, byte[] body);

    /** The {@code token_type} a token response must have (case-insensitive); null for {@code Bearer} or none. */
    String tokenType();
}
