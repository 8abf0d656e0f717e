package io.apiwarden.core.token.jose;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.ClientAuthenticator;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;
import java.util.function.Function;

/**
 * {@code private_key_jwt} (RFC 7523 section 2.2, OpenID Connect Core section 9): each token request, each retry
 * included, carries a JWT made and signed for it alone, {@code iss} and {@code sub} the client id, {@code aud} the
 * token endpoint, a fresh {@code jti}, and a life of {@link #LIFETIME}. The key is read from its file, which may
 * change. The only class with Nimbus JOSE+JWT on the token path: it loads only when this method is configured.
 */
public final class SignedJwtAuthenticator implements ClientAuthenticator {
    /** Short, so that an assertion seen on the way is of no use for long; long enough for clocks a little apart. */
    public static final Duration LIFETIME = Duration.ofSeconds(60);

    static final String ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

    private final String clientId;
    private final ReloadableSecret<PrivateKey> key;
    private final String keyId;
    /** The JWS algorithm a key signs with: the configured one, or the key's default. */
    private final Function<PrivateKey, String> algorithm;

    private final Clock clock;
    /** The signer of the key last used: a key that changed gets a new one. */
    private volatile Signing signing;

    /**
     * @param algorithm the JWS algorithm for a key (checked against it beforehand by the configuration)
     * @param keyId the {@code kid} sent in the header, or null for none
     */
    public SignedJwtAuthenticator(
            String clientId,
            ReloadableSecret<PrivateKey> key,
            Function<PrivateKey, String> algorithm,
            String keyId,
            Clock clock) {
        this.clientId = clientId;
        this.key = key;
        this.algorithm = algorithm;
        this.keyId = keyId;
        this.clock = clock;
    }

    @Override
    public void authenticate(URI tokenUrl, HttpRequest.Builder request, StringBuilder form) {
        form.append("&client_id=")
                .append(URLEncoder.encode(clientId, StandardCharsets.UTF_8))
                .append("&client_assertion_type=")
                .append(URLEncoder.encode(ASSERTION_TYPE, StandardCharsets.UTF_8))
                .append("&client_assertion=")
                .append(assertion(tokenUrl));
    }

    /** A new signed assertion for a request to {@code tokenUrl}. */
    String assertion(URI tokenUrl) {
        Signing s = signing();
        Instant now = clock.instant();
        JWTClaimsSet claims = new JWTClaimsSet.Builder()
                .issuer(clientId)
                .subject(clientId)
                .audience(tokenUrl.toString())
                .jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(LIFETIME)))
                .build();
        SignedJWT jwt = new SignedJWT(s.header, claims);
        try {
            jwt.sign(s.signer);
        } catch (JOSEException e) {
            // The message names what failed (an algorithm, a key size), never the key.
            throw new IllegalStateException("the client assertion could not be signed with " + s.header.getAlgorithm()
                    + " (" + e.getClass().getSimpleName() + ")");
        }
        return jwt.serialize();
    }

    private Signing signing() {
        PrivateKey current = key.get();
        Signing s = signing;
        if (s == null || s.key != current) {
            s = new Signing(current, algorithm.apply(current), keyId);
            signing = s;
        }
        return s;
    }

    @Override
    public boolean reloadNow() {
        return key.checkNow();
    }

    @Override
    public boolean reloadable() {
        return key.followsAFile();
    }

    @Override
    public String describe() {
        return "private_key_jwt";
    }

    @Override
    public String toString() {
        return "SignedJwtAuthenticator{" + clientId + ", " + key + "}";
    }

    /** A key with its header and signer, made once per key. */
    private static final class Signing {
        final PrivateKey key;
        final JWSHeader header;
        final JWSSigner signer;

        Signing(PrivateKey key, String algorithm, String keyId) {
            this.key = key;
            this.header = new JWSHeader.Builder(JWSAlgorithm.parse(algorithm))
                    .type(JOSEObjectType.JWT)
                    .keyID(keyId)
                    .build();
            try {
                this.signer = key instanceof ECPrivateKey ? new ECDSASigner((ECPrivateKey) key) : new RSASSASigner(key);
            } catch (JOSEException | IllegalArgumentException e) {
                throw new IllegalStateException("the client assertion key cannot sign with " + algorithm + " ("
                        + e.getClass().getSimpleName() + ")");
            }
        }
    }
}
