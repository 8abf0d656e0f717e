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

    private final DpopProofs proofs;
    private final LatestNonce apiNonce;
    private final LatestNonce tokenEndpointNonce;
    /** The last token's {@code ath}: a token serves many calls, and its hash is the same for each. */
    private volatile Ath lastAth;

    private Dpop(DpopProofs proofs, LatestNonce tokenEndpointNonce, LatestNonce apiNonce) {
        this.proofs = proofs;
        this.tokenEndpointNonce = tokenEndpointNonce;
        this.apiNonce = apiNonce;
    }

    /**
     * DPoP with {@code key}, its proofs dated by {@code clock}, the servers' nonces kept in this JVM only.
     *
     * @throws IllegalStateException when the JOSE library refuses the key (said in the message, never the key)
     */
    public static Dpop create(DpopKey key, Clock clock) {
        return create(key, clock, LatestNonce.local(), LatestNonce.local());
    }

    /** As above, the latest nonces of the token endpoint and of the API kept as given (shared with a fleet, say). */
    public static Dpop create(DpopKey key, Clock clock, LatestNonce tokenEndpointNonce, LatestNonce apiNonce) {
        try {
            return new Dpop(new DpopProofs(key, clock), tokenEndpointNonce, apiNonce);
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
            headers.accept(PROOF_HEADER, proofs.proof(method, htu, ath(value), apiNonce.current()));
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
        apiNonce.learn(nonce);
    }

    @Override
    public TokenRequestProof tokenRequests() {
        return this;
    }

    @Override
    public void prove(HttpRequest.Builder request, URI tokenUrl) {
        try {
            request.header(PROOF_HEADER, proofs.proof("POST", Htu.of(tokenUrl), null, tokenEndpointNonce.current()));
        } catch (JOSEException e) {
            throw new IllegalStateException("a DPoP proof for the token request could not be signed", e);
        }
    }

    @Override
    public boolean demandsNonce(int status, HttpHeaders headers, byte[] body) {
        String nonce = headers.firstValue(NONCE_HEADER).orElse(null);
        if (!LatestNonce.isNonce(nonce)) {
            return false;
        }
        tokenEndpointNonce.learn(nonce);
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
