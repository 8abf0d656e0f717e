package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.SignedJWT;
import io.apiwarden.core.log.LogCapture;
import io.apiwarden.core.secret.KubernetesSecretMount;
import io.apiwarden.core.secret.ReloadableSecret;
import io.apiwarden.core.token.AccessToken;
import io.apiwarden.core.token.AccessTokens;
import io.apiwarden.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DPoP key file replaced (as Kubernetes swaps a Secret's {@code ..data} link): the new key is read only as a token
 * request starts, after the check interval, and a token is always proved with the key it is bound to.
 */
class DpopKeyRotationTest {
    private static final Duration INTERVAL = Duration.ofSeconds(5);
    private static final String PROPERTY = "apiwarden.dpop.key-file";

    @TempDir
    Path folder;

    private final MutableClock clock = MutableClock.atEpochDay();
    private KubernetesSecretMount mount;
    private Dpop dpop;

    @BeforeEach
    void start() throws Exception {
        mount = new KubernetesSecretMount(folder);
        Path file = mount.mount("dpop.pem", pem(newKey()));
        ReloadableSecret<DpopKey> keys =
                ReloadableSecret.open(PROPERTY, file, pem -> DpopKey.parse(pem, null), clock, INTERVAL);
        dpop = Dpop.create(keys, clock, LatestNonce.local(), LatestNonce.local());
    }

    @Test
    void aNewKeyIsReadAsATokenRequestStartsAfterTheCheckIntervalNeverOnAnApiCall() throws Exception {
        String a = dpop.keyForNextToken();
        KeyPair b = newKey();

        try (LogCapture log = LogCapture.at("info")) {
            mount.update("dpop.pem", pem(b));
            clock.advance(INTERVAL);
            // API calls do not look at the file: the token of key A is proved with A, and stays current.
            assertThat(keyOfProof(apiProof(AccessTokens.bound("t-a", a)))).isEqualTo(a);
            assertThat(dpop.boundToCurrentKey(a, false)).isTrue();
            assertThat(log.text()).isEmpty();

            String next = dpop.keyForNextToken();

            assertThat(next).isEqualTo(thumbprint(b)).isNotEqualTo(a);
            assertThat(keyOfProof(tokenRequestProof())).isEqualTo(next);
            assertThat(log.text().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("INFO", PROPERTY, "changed")
                    .doesNotContain(Base64.getEncoder()
                            .encodeToString(b.getPrivate().getEncoded())
                            .substring(0, 16)));
        }
    }

    @Test
    void aTokenIsProvedWithTheKeyItIsBoundToWhileItsReplacementIsAskedFor() throws Exception {
        String a = dpop.keyForNextToken();
        mount.update("dpop.pem", pem(newKey()));
        clock.advance(INTERVAL);
        String b = dpop.keyForNextToken();

        assertThat(keyOfProof(apiProof(AccessTokens.bound("t-a", a)))).isEqualTo(a);
        assertThat(keyOfProof(apiProof(AccessTokens.bound("t-b", b)))).isEqualTo(b);
        // A token whose key is not known (configured, or from a file) goes with the key held now.
        assertThat(keyOfProof(apiProof(AccessTokens.bound("t-?", null)))).isEqualTo(b);
        assertThat(dpop.canProve(a)).isTrue();
        assertThat(dpop.boundToCurrentKey(a, false)).isFalse();
        assertThat(dpop.boundToCurrentKey(b, false)).isTrue();
    }

    @Test
    void aTokenOfAKeyReplacedTwiceGoesWithoutAProofNeverWithAnotherKeys() throws Exception {
        String a = dpop.keyForNextToken();
        for (int i = 0; i < 2; i++) {
            mount.update("dpop.pem", pem(newKey()));
            clock.advance(INTERVAL);
            dpop.keyForNextToken();
        }

        assertThat(dpop.canProve(a)).isFalse();
        assertThat(headers(AccessTokens.bound("t-a", a))).containsOnlyKeys("Authorization");
    }

    @Test
    void aStoredTokenOfTheFilesNewKeyIsTakenAtOnceAndOneOfAnotherKeyIsNot() throws Exception {
        String a = dpop.keyForNextToken();
        KeyPair b = newKey();
        mount.update("dpop.pem", pem(b));

        // Another JVM read the new file first and stored a token bound to it: this one looks before the interval.
        assertThat(dpop.boundToCurrentKey(thumbprint(b), true)).isTrue();
        assertThat(dpop.keyForNextToken()).isEqualTo(thumbprint(b));
        assertThat(dpop.boundToCurrentKey(thumbprint(newKey()), true)).isFalse();
        assertThat(dpop.boundToCurrentKey(a, true)).isFalse();
    }

    @Test
    void aFileThatTurnsBadKeepsTheKeyWithOneWarning() throws Exception {
        String a = dpop.keyForNextToken();

        try (LogCapture log = LogCapture.at("info")) {
            mount.update("dpop.pem", "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n");
            clock.advance(INTERVAL);
            assertThat(dpop.keyForNextToken()).isEqualTo(a);
            clock.advance(INTERVAL);
            assertThat(dpop.keyForNextToken()).isEqualTo(a);

            assertThat(log.text().lines()).singleElement().satisfies(line -> assertThat(line)
                    .contains("WARN", PROPERTY, "PKCS#8", "last good value"));
        }
        assertThat(keyOfProof(tokenRequestProof())).isEqualTo(a);
    }

    private Map<String, String> headers(AccessToken token) {
        Map<String, String> headers = new HashMap<>();
        dpop.authorize("GET", "https://api.example.com/orders", token, headers::put);
        return headers;
    }

    private String apiProof(AccessToken token) {
        return headers(token).get("DPoP");
    }

    private String tokenRequestProof() {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://auth.example.com/token"));
        dpop.prove(b, URI.create("https://auth.example.com/token"));
        return b.GET().build().headers().firstValue("DPoP").orElseThrow();
    }

    /** The thumbprint of the key in the proof's header, after checking that the proof is signed with it. */
    private static String keyOfProof(String proof) throws Exception {
        SignedJWT jwt = SignedJWT.parse(proof);
        ECKey jwk = jwt.getHeader().getJWK().toECKey();
        assertThat(jwt.verify(new DefaultJWSVerifierFactory().createJWSVerifier(jwt.getHeader(), jwk.toPublicKey())))
                .isTrue();
        return jwk.computeThumbprint().toString();
    }

    private static String thumbprint(KeyPair pair) throws Exception {
        return new ECKey.Builder(Curve.P_256, (ECPublicKey) pair.getPublic())
                .build()
                .computeThumbprint()
                .toString();
    }

    private static KeyPair newKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair();
    }

    private static String pem(KeyPair pair) {
        return "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(pair.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
    }
}
