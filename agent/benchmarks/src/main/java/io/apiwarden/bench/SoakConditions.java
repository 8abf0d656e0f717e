package io.apiwarden.bench;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the soak's server does besides answering: a token service whose access tokens expire and
 * whose refresh tokens rotate, and a global rate limit that throttles every API call for a short
 * window every few thousand calls.
 *
 * <ul>
 *   <li>Tokens: each lives {@code tokenLifetime}, says so in {@code expires_in}, and is refused with
 *       {@code 401 invalid_token} once past it. A refresh must bring the current refresh token, and
 *       gets a new one ({@code invalid_grant} otherwise).
 *   <li>Throttle: API call number {@code throttleEvery}, {@code 2 × throttleEvery}, ... opens a window of
 *       {@code throttleWindow} in which every API call is answered 429 without {@code Retry-After}.
 * </ul>
 *
 * <p>Called only on the server's one event-loop thread; the counters are read from others.
 */
final class SoakConditions {
    private final SecureRandom random = new SecureRandom();
    private final long lifetimeNanos;
    private final int throttleEvery;
    private final long throttleWindowNanos;

    /** Access token to the {@link System#nanoTime()} it expires at; also the expired ones, which are few. */
    private final Map<String, Long> accessTokens = new HashMap<>();

    private final List<Long> expiries = new ArrayList<>();
    private String refreshToken;
    private long newestIssuedAt;
    private long apiCalls;
    private long throttledUntil;

    private volatile String firstAccessToken;
    private volatile long tokenRequests;
    private volatile long earlyTokenRequests;
    private volatile long refusedGrants;
    private volatile long expiredRefusals;
    private volatile long throttleWindows;
    private volatile long throttledCalls;
    private volatile long lastApiCallAt;

    SoakConditions(Duration tokenLifetime, int throttleEvery, Duration throttleWindow) {
        this.lifetimeNanos = tokenLifetime.toNanos();
        this.throttleEvery = throttleEvery;
        this.throttleWindowNanos = throttleWindow.toNanos();
        this.refreshToken = newToken("rt_");
        long now = System.nanoTime();
        this.throttledUntil = now;
        this.lastApiCallAt = now;
        this.firstAccessToken = issueAccessToken(now);
    }

    /** The access token the app starts with: issued when these conditions were made, and ticking since. */
    String firstAccessToken() {
        return firstAccessToken;
    }

    /** The refresh token the app starts with; read it before the app runs, it rotates. */
    synchronized String firstRefreshToken() {
        return refreshToken;
    }

    /** Whether this API call falls in a throttle window, which call number {@code throttleEvery} opens. */
    boolean throttles(long now) {
        apiCalls++;
        lastApiCallAt = now;
        if (now - throttledUntil < 0 || (throttleEvery > 0 && apiCalls % throttleEvery == 0)) {
            if (now - throttledUntil >= 0) {
                throttledUntil = now + throttleWindowNanos;
                throttleWindows++;
            }
            throttledCalls++;
            return true;
        }
        return false;
    }

    /** Whether {@code authorization} carries an access token that was issued and has not expired. */
    boolean accepts(String authorization, long now) {
        if (authorization == null || !authorization.startsWith("Bearer ")) {
            return false;
        }
        Long expiresAt = accessTokens.get(authorization.substring("Bearer ".length()));
        if (expiresAt != null && now - expiresAt < 0) {
            return true;
        }
        expiredRefusals++;
        return false;
    }

    /** The answer to a token request with form body {@code form}: its status and JSON. */
    synchronized TokenAnswer refresh(String form, long now) {
        tokenRequests++;
        if (!refreshToken.equals(formValue(form, "refresh_token"))) {
            refusedGrants++;
            return new TokenAnswer(
                    400, "{\"error\":\"invalid_grant\",\"error_description\":\"refresh token revoked\"}");
        }
        if (now - newestIssuedAt < lifetimeNanos / 2) {
            // The agent refreshes in the last fifth of a life, or on a refusal after it: sooner means two
            // refreshes for one expiry.
            earlyTokenRequests++;
        }
        refreshToken = newToken("rt_");
        String access = issueAccessToken(now);
        return new TokenAnswer(
                200,
                "{\"access_token\":\"" + access + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                        + Duration.ofNanos(lifetimeNanos).toSeconds() + ",\"refresh_token\":\"" + refreshToken + "\"}");
    }

    private String issueAccessToken(long now) {
        String access = newToken("at_");
        accessTokens.put(access, now + lifetimeNanos);
        expiries.add(now + lifetimeNanos);
        newestIssuedAt = now;
        return access;
    }

    /** How many issued access tokens had expired when the last API call came. */
    synchronized long expiriesByLastApiCall() {
        long last = lastApiCallAt;
        return expiries.stream().filter(at -> last - at >= 0).count();
    }

    long tokenRequests() {
        return tokenRequests;
    }

    /** Token requests that came while the newest token had more than half its life left. */
    long earlyTokenRequests() {
        return earlyTokenRequests;
    }

    long refusedGrants() {
        return refusedGrants;
    }

    /** API calls answered 401 because their token had expired (or was never issued). */
    long expiredRefusals() {
        return expiredRefusals;
    }

    long throttleWindows() {
        return throttleWindows;
    }

    long throttledCalls() {
        return throttledCalls;
    }

    private String newToken(String prefix) {
        byte[] bytes = new byte[24];
        random.nextBytes(bytes);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String formValue(String form, String name) {
        for (String pair : form.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** A token endpoint's answer. */
    static final class TokenAnswer {
        final int status;
        final String json;

        TokenAnswer(int status, String json) {
            this.status = status;
            this.json = json;
        }
    }
}
