package io.apiwarden.core.dpop;

import com.nimbusds.jose.JOSEException;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.Htu;
import io.apiwarden.core.token.SenderConstraint;
import io.apiwarden.core.token.TokenRequestProof;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.BiConsumer;

/**
 * DPoP (RFC 9449) for one API: a proof on every token request and on every attempt to the API, each new, with the
 * latest nonce each server gave ({@code DPoP-Nonce}), and the API's token sent as {@code Authorization: DPoP}.
 * Made only when {@code apiwarden.dpop.enabled} is true: the JOSE library loads with it.
 */
public final class Dpop implements SenderConstraint, TokenRequestProof {
    public static final String SCHEME = "DPoP";
    /** The header that carries a proof, and the one that carries a server's nonce. */
    static final String PROOF_HEADER = "DPoP";

    static final String NONCE_HEADER = "DPoP-Nonce";
    /** A nonce is opaque, but one this long is no nonce: it is not carried into proofs. */
    private static final int MAX_NONCE_LENGTH = 1024;

    private final DpopProofs proofs;
    private volatile String apiNonce;
    private volatile String tokenEndpointNonce;
    /** The last token's {@code ath}: a token serves many calls, and its hash is the same for each. */
    private volatile Ath lastAth;

    private Dpop(DpopProofs proofs) {
        this.proofs = proofs;
    }

    /**
     * DPoP with {@code key}, its proofs dated by {@code clock}.
     *
     * @throws IllegalStateException when the JOSE library refuses the key (said in the message, never the key)
     */
    public static Dpop create(DpopKey key, Clock clock) {
        try {
            return new Dpop(new DpopProofs(key, clock));
        } catch (JOSEException e) {
            throw new IllegalStateException("the DPoP key cannot sign " + key.algorithm() + " proofs", e);
        }
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    @Override
    public void authorize(String method, String htu, AccessToken token, BiConsumer<String, String> headers) {
        String value = token.value();
        headers.accept("Authorization", SCHEME + " " + value);
        try {
            headers.accept(PROOF_HEADER, proofs.proof(method, htu, ath(value), apiNonce));
        } catch (JOSEException | RuntimeException e) {
            // The attempt goes without a proof: the API refuses it, and the app sees that refusal.
            AgentLog.once(
                    AgentLog.Level.ERROR,
                    "dpop-proof",
                    "a DPoP proof could not be signed (" + e.getClass().getSimpleName()
                            + "); calls go without one and the API will refuse them",
                    null);
        }
    }

    @Override
    public void apiNonce(String nonce) {
        if (isNonce(nonce)) {
            apiNonce = nonce;
        }
    }

    @Override
    public TokenRequestProof tokenRequests() {
        return this;
    }

    @Override
    public void prove(HttpRequest.Builder request, URI tokenUrl) {
        try {
            request.header(PROOF_HEADER, proofs.proof("POST", Htu.of(tokenUrl), null, tokenEndpointNonce));
        } catch (JOSEException e) {
            throw new IllegalStateException("a DPoP proof for the token request could not be signed", e);
        }
    }

    @Override
    public boolean demandsNonce(int status, HttpHeaders headers, byte[] body) {
        String nonce = headers.firstValue(NONCE_HEADER).orElse(null);
        if (!isNonce(nonce)) {
            return false;
        }
        tokenEndpointNonce = nonce;
        // RFC 9449 section 8: a 400 whose error is use_dpop_nonce, with the nonce to use.
        return status == 400 && body != null && new String(body, StandardCharsets.UTF_8).contains("\"use_dpop_nonce\"");
    }

    @Override
    public String tokenType() {
        return SCHEME;
    }

    private String ath(String token) {
        Ath last = lastAth;
        if (last != null && last.token.equals(token)) {
            return last.ath;
        }
        Ath fresh = new Ath(token, DpopProofs.ath(token));
        lastAth = fresh;
        return fresh.ath;
    }

    /** RFC 9449's {@code nonce = 1*NQCHAR}: printable ASCII but {@code "} and a backslash; bounded. */
    static boolean isNonce(String s) {
        if (s == null || s.isEmpty() || s.length() > MAX_NONCE_LENGTH) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** Never shows the key, a proof or a nonce. */
    @Override
    public String toString() {
        return "Dpop{" + proofs + "}";
    }

    private static final class Ath {
        final String token;
        final String ath;

        Ath(String token, String ath) {
            this.token = token;
            this.ath = ath;
        }
    }
}
