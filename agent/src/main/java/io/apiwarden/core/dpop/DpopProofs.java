package io.apiwarden.core.dpop;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.util.Base64;
import java.util.Date;

/**
 * Signs DPoP proofs (RFC 9449 section 4.2) with one key: a JWT of type {@code dpop+jwt} whose header carries the
 * public key, and whose claims say which request it proves ({@code htm}, {@code htu}), when ({@code iat}), a fresh
 * {@code jti}, and, at the API, the hash of the access token ({@code ath}) and the server's latest nonce. The only
 * class of the agent that touches the JOSE library; loaded only when DPoP is on.
 */
final class DpopProofs {
    private static final JOSEObjectType DPOP_JWT = new JOSEObjectType("dpop+jwt");
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final JWSSigner signer;
    private final JWSHeader header;
    private final String thumbprint;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();

    DpopProofs(DpopKey key, Clock clock) throws JOSEException {
        this.clock = clock;
        JWK publicJwk;
        JWSAlgorithm alg;
        if (key.algorithm() == DpopKey.Algorithm.ES256) {
            ECPrivateKey privateKey = (ECPrivateKey) key.pair().getPrivate();
            this.signer = new ECDSASigner(privateKey);
            publicJwk = new ECKey.Builder(Curve.P_256, (ECPublicKey) key.pair().getPublic()).build();
            alg = JWSAlgorithm.ES256;
        } else {
            this.signer = new RSASSASigner(key.pair().getPrivate());
            publicJwk = new RSAKey.Builder((RSAPublicKey) key.pair().getPublic()).build();
            alg = key.algorithm() == DpopKey.Algorithm.PS256 ? JWSAlgorithm.PS256 : JWSAlgorithm.RS256;
        }
        // One header for every proof: the algorithm, the type and the public key never change.
        this.header = new JWSHeader.Builder(alg).type(DPOP_JWT).jwk(publicJwk).build();
        this.thumbprint = publicJwk.computeThumbprint().toString();
    }

    /** The JWK SHA-256 thumbprint (RFC 7638) of the key: what a server binds a token to ({@code cnf.jkt}). */
    String thumbprint() {
        return thumbprint;
    }

    /**
     * A new proof, never one made before: a fresh {@code jti} each time.
     *
     * @param htu the target URI without query and fragment
     * @param ath the access token's hash ({@link #ath}), or null for a token request
     * @param nonce the server's latest {@code DPoP-Nonce}, or null
     */
    String proof(String htm, String htu, String ath, String nonce) throws JOSEException {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .jwtID(jti())
                .claim("htm", htm)
                .claim("htu", htu)
                // Whole seconds, as a NumericDate is sent: the server compares it with its own clock.
                .issueTime(new Date(clock.millis() / 1000 * 1000));
        if (ath != null) {
            claims.claim("ath", ath);
        }
        if (nonce != null) {
            claims.claim("nonce", nonce);
        }
        SignedJWT jwt = new SignedJWT(header, claims.build());
        jwt.sign(signer);
        return jwt.serialize();
    }

    /** The {@code ath} of an access token: the base64url of its SHA-256 (RFC 9449 section 4.2). */
    static String ath(String accessToken) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(accessToken.getBytes(StandardCharsets.US_ASCII));
            return BASE64URL.encodeToString(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** 128 random bits: unique enough that a server never sees one twice. */
    private String jti() {
        byte[] b = new byte[16];
        random.nextBytes(b);
        return BASE64URL.encodeToString(b);
    }

    /** Never shows the key. */
    @Override
    public String toString() {
        return "DpopProofs{" + header.getAlgorithm() + "}";
    }
}
