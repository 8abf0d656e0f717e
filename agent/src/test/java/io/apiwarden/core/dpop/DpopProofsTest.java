package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import io.apiwarden.core.token.AccessTokens;
import io.apiwarden.core.token.Htu;
import io.apiwarden.testing.DpopServer;
import io.apiwarden.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** DPoP proofs (RFC 9449 section 4.2): their claims, their signature, and never the same proof twice. */
class DpopProofsTest {
    private static final String API_URL = "https://api.example.com/v1/user";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00.750Z"));

    @Test
    void anAttemptCarriesTheTokenAsDpopAndAProofOfTheRequestSignedByTheKeyInItsHeader() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);
        Map<String, String> headers = new HashMap<>();

        dpop.authorize("GET", API_URL, AccessTokens.of("tok-1"), headers::put);

        assertThat(headers).containsEntry("Authorization", "DPoP tok-1");
        SignedJWT proof = SignedJWT.parse(headers.get("DPoP"));
        assertThat(proof.getHeader().getType()).isEqualTo(new JOSEObjectType("dpop+jwt"));
        assertThat(proof.getHeader().getAlgorithm()).isEqualTo(JWSAlgorithm.ES256);
        ECKey jwk = (ECKey) proof.getHeader().getJWK();
        assertThat(jwk.isPrivate()).isFalse();
        assertThat(proof.verify(new ECDSAVerifier(jwk))).isTrue();
        var claims = proof.getJWTClaimsSet();
        assertThat(claims.getClaim("htm")).isEqualTo("GET");
        assertThat(claims.getClaim("htu")).isEqualTo(API_URL);
        assertThat(claims.getIssueTime().toInstant()).isEqualTo(Instant.parse("2026-03-01T10:00:00Z"));
        assertThat(claims.getClaim("ath")).isEqualTo(DpopServer.ath("tok-1"));
        assertThat(claims.getJWTID()).hasSizeGreaterThanOrEqualTo(22);
        assertThat(claims.getClaim("nonce")).isNull();
    }

    @Test
    void everyProofIsNewEvenForTheSameRequestAtTheSameSecond() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);
        Set<String> jtis = new HashSet<>();
        Set<String> proofs = new HashSet<>();

        for (int i = 0; i < 50; i++) {
            Map<String, String> headers = new HashMap<>();
            dpop.authorize("POST", API_URL, AccessTokens.of("tok-1"), headers::put);
            proofs.add(headers.get("DPoP"));
            jtis.add(SignedJWT.parse(headers.get("DPoP")).getJWTClaimsSet().getJWTID());
        }

        assertThat(proofs).hasSize(50);
        assertThat(jtis).hasSize(50);
    }

    @Test
    void aProofIsDatedByTheClockAndHashesTheTokenItCarries() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);
        Map<String, String> first = new HashMap<>();
        Map<String, String> second = new HashMap<>();

        dpop.authorize("GET", API_URL, AccessTokens.of("tok-1"), first::put);
        clock.advance(Duration.ofSeconds(90));
        dpop.authorize("GET", API_URL, AccessTokens.of("tok-2"), second::put);

        var a = SignedJWT.parse(first.get("DPoP")).getJWTClaimsSet();
        var b = SignedJWT.parse(second.get("DPoP")).getJWTClaimsSet();
        assertThat(Duration.between(
                        a.getIssueTime().toInstant(), b.getIssueTime().toInstant()))
                .isEqualTo(Duration.ofSeconds(90));
        assertThat(a.getClaim("ath")).isEqualTo(DpopServer.ath("tok-1"));
        assertThat(b.getClaim("ath")).isEqualTo(DpopServer.ath("tok-2"));
    }

    @Test
    void theApisLatestNonceGoesIntoTheProofsAfterItAndAMalformedOneIsIgnored() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);

        dpop.apiNonce("n-1");
        dpop.apiNonce("n-2");
        dpop.apiNonce("bad \"nonce\"");
        Map<String, String> headers = new HashMap<>();
        dpop.authorize("GET", API_URL, AccessTokens.of("tok-1"), headers::put);

        assertThat(SignedJWT.parse(headers.get("DPoP")).getJWTClaimsSet().getClaim("nonce"))
                .isEqualTo("n-2");
    }

    @Test
    void aTokenRequestsProofNamesThePostToTheEndpointWithoutQueryNorFragmentAndHasNoAth() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://auth.example.com/token"));

        dpop.prove(b, URI.create("HTTPS://Auth.Example.com:443/realms/x/token?kc=1#frag"));

        var claims = SignedJWT.parse(b.build().headers().firstValue("DPoP").orElseThrow())
                .getJWTClaimsSet();
        assertThat(claims.getClaim("htm")).isEqualTo("POST");
        assertThat(claims.getClaim("htu")).isEqualTo("https://auth.example.com/realms/x/token");
        assertThat(claims.getClaim("ath")).isNull();
    }

    @Test
    void theTokenEndpointsDemandForANonceIsRecognisedAndTheNonceCarriedByTheNextProof() throws Exception {
        Dpop dpop = Dpop.create(DpopKey.generate(null), clock);
        HttpHeaders withNonce = HttpHeaders.of(Map.of("DPoP-Nonce", List.of("tn-1")), (a, b) -> true);
        byte[] demand = "{\"error\":\"use_dpop_nonce\"}".getBytes(StandardCharsets.UTF_8);

        assertThat(dpop.demandsNonce(400, HttpHeaders.of(Map.of(), (a, b) -> true), demand))
                .as("no nonce given")
                .isFalse();
        assertThat(dpop.demandsNonce(400, withNonce, "{\"error\":\"invalid_grant\"}".getBytes(StandardCharsets.UTF_8)))
                .isFalse();
        assertThat(dpop.demandsNonce(400, withNonce, demand)).isTrue();
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://auth.example.com/token"));
        dpop.prove(b, URI.create("https://auth.example.com/token"));

        assertThat(SignedJWT.parse(b.build().headers().firstValue("DPoP").orElseThrow())
                        .getJWTClaimsSet()
                        .getClaim("nonce"))
                .isEqualTo("tn-1");
    }

    @Test
    void rsaKeysSignWithPs256ByDefaultOrRs256WhenAsked() throws Exception {
        for (String alg : new String[] {"PS256", "RS256"}) {
            Dpop dpop = Dpop.create(DpopKey.read(DpopKeyTest.resource("rsa-2048.pem"), alg), clock);
            Map<String, String> headers = new HashMap<>();

            dpop.authorize("GET", API_URL, AccessTokens.of("tok-1"), headers::put);

            SignedJWT proof = SignedJWT.parse(headers.get("DPoP"));
            assertThat(proof.getHeader().getAlgorithm().getName()).isEqualTo(alg);
            assertThat(proof.verify(
                            new RSASSAVerifier((RSAKey) proof.getHeader().getJWK())))
                    .isTrue();
        }
    }

    @Test
    void theHtuIsTheUriWithoutQueryAndFragmentWithSchemeAndHostInLowerCaseAndNoDefaultPort() {
        assertThat(Htu.of(URI.create("HTTPS://Api.Example.COM:443/v1/Items?id=1#x")))
                .isEqualTo("https://api.example.com/v1/Items");
        assertThat(Htu.of(URI.create("http://api.example.com:80/a%2Fb"))).isEqualTo("http://api.example.com/a%2Fb");
        assertThat(Htu.of(URI.create("https://api.example.com:8443"))).isEqualTo("https://api.example.com:8443/");
        assertThat(Htu.of("http", "[::1]", 8080, "/x")).isEqualTo("http://[::1]:8080/x");
    }

    @Test
    void nothingShowsTheKey() throws Exception {
        DpopKey key = DpopKey.generate(null);

        assertThat(key.toString()).isEqualTo("DpopKey{ES256, generated in memory}");
        assertThat(Dpop.create(key, clock).toString()).isEqualTo("Dpop{DpopProofs{ES256}}");
    }
}
