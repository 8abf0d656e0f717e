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

    /**
     * Called once as a token request starts, before its first proof: looks at a followed key file when its check
     * interval has passed, and names the key this request's proofs (resends included) are signed with, which the
     * token it brings is bound to: its JWK thumbprint (RFC 7638). Null for bearer tokens.
     */
    default String keyForNextToken() {
        return null;
    }

    /**
     * Whether a token bound to {@code boundKey} is bound to the key new tokens are (a null {@code boundKey}, not
     * known, is taken to be). With {@code lookAtTheKeyFile}, a followed key file is looked at once more when it is
     * not: a token another JVM of the fleet stored may be bound to the file's new key, which this JVM has not read
     * yet. Only a token request's path looks, never an API call's.
     */
    default boolean boundToCurrentKey(String boundKey, boolean lookAtTheKeyFile) {
        return true;
    }

    /** Whether proofs can still be made for a token bound to {@code boundKey}: the key it is bound to is held. */
    default boolean canProve(String boundKey) {
        return true;
    }
}
