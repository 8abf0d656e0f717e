package io.apiwarden.core.dpop;

import com.nimbusds.jose.JOSEException;
import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.secret.ReloadableSecret;
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

    private final ReloadableSecret<DpopKey> keys;
    private final Clock clock;
    private final LatestNonce apiNonce;
    private final LatestNonce tokenEndpointNonce;
    /** The key new tokens are bound to. */
    private volatile Signer current;
    /**
     * The key before {@link #current}, kept for the token bound to it while its replacement is asked for: a call
     * under way with it, or a resend of one, proves it with the key it is bound to, never with the new one.
     */
    private volatile Signer previous;
    /** The key the token request under way is proved with, resends included: fixed as the request starts. */
    private volatile Signer tokenRequests;
    /** The last token's {@code ath}: a token serves many calls, and its hash is the same for each. */
    private volatile Ath lastAth;

    private Dpop(ReloadableSecret<DpopKey> keys, Clock clock, LatestNonce tokenEndpointNonce, LatestNonce apiNonce)
            throws JOSEException {
        this.keys = keys;
        this.clock = clock;
        this.tokenEndpointNonce = tokenEndpointNonce;
        this.apiNonce = apiNonce;
        this.current = new Signer(keys.get(), clock);
        this.tokenRequests = current;
    }

    /**
     * DPoP with {@code key}, its proofs dated by {@code clock}, the servers' nonces kept in this JVM only.
     *
     * @throws IllegalStateException when the JOSE library refuses the key (said in the message, never the key)
     */
    public static Dpop create(DpopKey key, Clock clock) {
        return create(ReloadableSecret.fixed("DPoP key", key), clock, LatestNonce.local(), LatestNonce.local());
    }

    /**
     * As above, the key followed as its file changes ({@code keys}, looked at only as a token request starts), and
     * the latest nonces of the token endpoint and of the API kept as given (shared with a fleet, say).
     */
    public static Dpop create(
            ReloadableSecret<DpopKey> keys, Clock clock, LatestNonce tokenEndpointNonce, LatestNonce apiNonce) {
        try {
            return new Dpop(keys, clock, tokenEndpointNonce, apiNonce);
        } catch (JOSEException e) {
            throw new IllegalStateException(
                    "the DPoP key cannot sign " + keys.get().algorithm() + " proofs", e);
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
        Signer signer = signerFor(token.boundKey());
        if (signer == null) {
            // Bound to a key no longer held (two new keys while it was under way): no proof of another key.
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "dpop-key-gone",
                    "a call's token is bound to a DPoP key replaced twice since; it goes without a proof, and the"
                            + " API's refusal brings a token bound to the key now in "
                            + keys.property(),
                    null);
            return;
        }
        try {
            headers.accept(PROOF_HEADER, signer.proofs.proof(method, htu, ath(value), apiNonce.current()));
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
            request.header(
                    PROOF_HEADER,
                    tokenRequests.proofs.proof("POST", Htu.of(tokenUrl), null, tokenEndpointNonce.current()));
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

    @Override
    public String keyForNextToken() {
        Signer signer = follow(keys.get());
        tokenRequests = signer;
        return signer.thumbprint;
    }

    @Override
    public boolean boundToCurrentKey(String boundKey, boolean lookAtTheKeyFile) {
        if (boundKey == null || boundKey.equals(current.thumbprint)) {
            return true;
        }
        return lookAtTheKeyFile && keys.checkNow() && boundKey.equals(follow(keys.get()).thumbprint);
    }

    @Override
    public boolean canProve(String boundKey) {
        return signerFor(boundKey) != null;
    }

    /** The signer of the key a token is bound to: the current key's for a token whose key is not known. */
    private Signer signerFor(String boundKey) {
        Signer now = current;
        if (boundKey == null || boundKey.equals(now.thumbprint)) {
            return now;
        }
        Signer before = previous;
        return before != null && boundKey.equals(before.thumbprint) ? before : null;
    }

    /**
     * The signer of {@code key}, the key the file holds now: a new key becomes the current one, and the current one
     * the previous. A key the JOSE library refuses (it read as a key, but cannot sign) leaves the current one, with
     * one warning.
     */
    private synchronized Signer follow(DpopKey key) {
        Signer now = current;
        if (key == now.key) {
            return now;
        }
        try {
            Signer next = new Signer(key, clock);
            previous = now;
            current = next;
            return next;
        } catch (JOSEException | RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "dpop-key-unusable",
                    "the new DPoP key in " + keys.property() + " cannot sign " + key.algorithm() + " proofs ("
                            + e.getClass().getSimpleName() + "); the key before it is kept",
                    null);
            return now;
        }
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
        return "Dpop{" + current.proofs + "}";
    }

    /** One key's proofs, and its thumbprint. */
    private static final class Signer {
        final DpopKey key;
        final DpopProofs proofs;
        final String thumbprint;

        Signer(DpopKey key, Clock clock) throws JOSEException {
            this.key = key;
            this.proofs = new DpopProofs(key, clock);
            this.thumbprint = proofs.thumbprint();
        }
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
