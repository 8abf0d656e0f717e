package io.apiwarden.testing;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.HttpUrl;

/**
 * A token service and an API that verify DPoP (RFC 9449) as a strict server does: one proof per request, of type
 * {@code dpop+jwt}, signed by the key in its header; {@code htm} and {@code htu} the request's; {@code iat} within a
 * minute of the server's time; a {@code jti} never seen before (a replay is refused and counted); at the API the
 * token bound to that key ({@code jkt}) and the proof's {@code ath} its hash; and, when demanded, the server's
 * latest nonce. Tokens are issued at {@link #TOKEN_PATH}; every other path is the API and answers {@code ok <path>}.
 */
public final class DpopServer extends Dispatcher {
    public static final String TOKEN_PATH = "/auth/token";
    private static final long IAT_WINDOW_SECONDS = 60;

    private final Supplier<Instant> now;
    private final Set<String> seenJtis = ConcurrentHashMap.newKeySet();
    private final List<String> proofs = new CopyOnWriteArrayList<>();
    /** Issued access tokens, to the thumbprint of the key they are bound to. */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();

    private final AtomicInteger issued = new AtomicInteger();
    private final AtomicInteger tokenRequests = new AtomicInteger();
    private final AtomicInteger apiRequests = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final AtomicInteger tokenNonceDemands = new AtomicInteger();
    private final AtomicInteger apiNonceDemands = new AtomicInteger();
    private final List<String> refusals = new CopyOnWriteArrayList<>();

    private volatile String tokenNonce;
    private volatile String apiNonce;
    private volatile String tokenType = "DPoP";
    private volatile boolean rotateNonces;

    /** @param now the server's time, against which a proof's {@code iat} is checked */
    public DpopServer(Supplier<Instant> now) {
        this.now = now;
    }

    /** From now on the token endpoint demands this nonce in every proof. */
    public DpopServer demandTokenNonce(String nonce) {
        tokenNonce = nonce;
        return this;
    }

    /** From now on the API demands this nonce in every proof. */
    public DpopServer demandApiNonce(String nonce) {
        apiNonce = nonce;
        return this;
    }

    /** From now on both servers give a nonce they never take: a proof can never carry the right one. */
    public DpopServer giveNoncesNeverTaken() {
        rotateNonces = true;
        return this;
    }

    /** From now on tokens are issued with this {@code token_type} (a server that does not bind them says Bearer). */
    public DpopServer issueTokenType(String type) {
        tokenType = type;
        return this;
    }

    /** Every token issued so far stops working. */
    public void revokeAll() {
        tokens.clear();
    }

    public int tokenRequests() {
        return tokenRequests.get();
    }

    /** Token requests answered with a token: demands for a nonce and refusals not counted. */
    public int tokensIssued() {
        return issued.get();
    }

    public int apiRequests() {
        return apiRequests.get();
    }

    /** Proofs refused because their {@code jti} had been seen. */
    public int replays() {
        return replays.get();
    }

    public int tokenNonceDemands() {
        return tokenNonceDemands.get();
    }

    public int apiNonceDemands() {
        return apiNonceDemands.get();
    }

    /** Every proof received, in order. */
    public List<String> proofs() {
        return List.copyOf(proofs);
    }

    /** Why requests were refused, other than for a nonce or a revoked token. */
    public List<String> refusals() {
        return List.copyOf(refusals);
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        boolean token = request.getUrl().encodedPath().equals(TOKEN_PATH);
        (token ? tokenRequests : apiRequests).incrementAndGet();
        List<String> headers = request.getHeaders().values("DPoP");
        if (headers.size() != 1) {
            return refuse(token, "invalid_dpop_proof", "one DPoP header expected, got " + headers.size());
        }
        String proof = headers.get(0);
        proofs.add(proof);
        SignedJWT jwt;
        JWTClaimsSet claims;
        JWK jwk;
        try {
            jwt = SignedJWT.parse(proof);
            jwk = jwt.getHeader().getJWK();
            if (!new JOSEObjectType("dpop+jwt").equals(jwt.getHeader().getType()) || jwk == null || jwk.isPrivate()) {
                return refuse(token, "invalid_dpop_proof", "typ or jwk wrong");
            }
            JWSAlgorithm alg = jwt.getHeader().getAlgorithm();
            if (!Set.of(JWSAlgorithm.ES256, JWSAlgorithm.PS256, JWSAlgorithm.RS256)
                    .contains(alg)) {
                return refuse(token, "invalid_dpop_proof", "alg " + alg);
            }
            JWSVerifier verifier = new DefaultJWSVerifierFactory().createJWSVerifier(jwt.getHeader(), publicKey(jwk));
            if (!jwt.verify(verifier)) {
                return refuse(token, "invalid_dpop_proof", "signature");
            }
            claims = jwt.getJWTClaimsSet();
        } catch (Exception e) {
            return refuse(token, "invalid_dpop_proof", "unreadable: " + e);
        }
        String problem = claimsProblem(request, claims);
        if (problem != null) {
            return refuse(token, "invalid_dpop_proof", problem);
        }
        if (!seenJtis.add(String.valueOf(claims.getClaim("jti")))) {
            replays.incrementAndGet();
            return refuse(token, "invalid_dpop_proof", "jti replayed");
        }
        String nonce = token ? tokenNonce : apiNonce;
        if (nonce != null && !nonce.equals(claims.getClaim("nonce"))) {
            int demands = (token ? tokenNonceDemands : apiNonceDemands).incrementAndGet();
            if (rotateNonces) {
                // Gives a nonce that is never the one it then wants.
                nonce = nonce + "-" + demands;
            }
            return token
                    ? new MockResponse.Builder()
                            .code(400)
                            .addHeader("DPoP-Nonce", nonce)
                            .addHeader("Content-Type", "application/json")
                            .body("{\"error\":\"use_dpop_nonce\",\"error_description\":\"a nonce is required\"}")
                            .build()
                    : new MockResponse.Builder()
                            .code(401)
                            .addHeader("DPoP-Nonce", nonce)
                            .addHeader("WWW-Authenticate", "DPoP error=\"use_dpop_nonce\", algs=\"ES256 PS256\"")
                            .build();
        }
        String thumbprint;
        try {
            thumbprint = jwk.computeThumbprint().toString();
        } catch (Exception e) {
            return refuse(token, "invalid_dpop_proof", "thumbprint");
        }
        return token ? issue(thumbprint) : answer(request, claims, thumbprint);
    }

    private MockResponse issue(String thumbprint) {
        String accessToken = "dpop-" + issued.incrementAndGet();
        tokens.put(accessToken, thumbprint);
        return new MockResponse.Builder()
                .code(200)
                .addHeader("Content-Type", "application/json")
                .body("{\"access_token\":\"" + accessToken + "\",\"token_type\":\"" + tokenType
                        + "\",\"expires_in\":3600}")
                .build();
    }

    private MockResponse answer(RecordedRequest request, JWTClaimsSet claims, String thumbprint) {
        String authorization = request.getHeaders().get("Authorization");
        if (authorization == null || !authorization.startsWith("DPoP ")) {
            return refuse(false, "invalid_token", "no DPoP authorization");
        }
        String accessToken = authorization.substring("DPoP ".length());
        if (!thumbprint.equals(tokens.get(accessToken))) {
            // Revoked, unknown, or bound to another key: the token is what is wrong.
            return new MockResponse.Builder()
                    .code(401)
                    .addHeader("WWW-Authenticate", "DPoP error=\"invalid_token\"")
                    .build();
        }
        if (!ath(accessToken).equals(claims.getClaim("ath"))) {
            return refuse(false, "invalid_dpop_proof", "ath");
        }
        return new MockResponse.Builder()
                .code(200)
                .body("ok " + request.getUrl().encodedPath())
                .build();
    }

    private String claimsProblem(RecordedRequest request, JWTClaimsSet claims) {
        if (!request.getMethod().equals(claims.getClaim("htm"))) {
            return "htm";
        }
        if (!htu(request.getUrl()).equals(claims.getClaim("htu"))) {
            return "htu " + claims.getClaim("htu") + " for " + htu(request.getUrl());
        }
        if (claims.getIssueTime() == null
                || Math.abs(claims.getIssueTime().toInstant().getEpochSecond()
                                - now.get().getEpochSecond())
                        > IAT_WINDOW_SECONDS) {
            return "iat";
        }
        if (claims.getClaim("jti") == null) {
            return "jti";
        }
        return null;
    }

    /** The request's URI as RFC 9449 compares it: no query, no fragment. */
    private static String htu(HttpUrl url) {
        boolean defaultPort = url.port() == HttpUrl.defaultPort(url.scheme());
        return url.scheme() + "://" + url.host() + (defaultPort ? "" : ":" + url.port()) + url.encodedPath();
    }

    public static String ath(String accessToken) {
        try {
            return Base64.getUrlEncoder()
                    .withoutPadding()
                    .encodeToString(MessageDigest.getInstance("SHA-256")
                            .digest(accessToken.getBytes(StandardCharsets.US_ASCII)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static java.security.Key publicKey(JWK jwk) throws Exception {
        return jwk instanceof com.nimbusds.jose.jwk.ECKey
                ? jwk.toECKey().toECPublicKey()
                : jwk.toRSAKey().toRSAPublicKey();
    }

    private MockResponse refuse(boolean token, String error, String why) {
        refusals.add(why);
        return token
                ? new MockResponse.Builder()
                        .code(400)
                        .addHeader("Content-Type", "application/json")
                        .body("{\"error\":\"" + error + "\"}")
                        .build()
                : new MockResponse.Builder()
                        .code(401)
                        .addHeader("WWW-Authenticate", "DPoP error=\"" + error + "\"")
                        .build();
    }
}
