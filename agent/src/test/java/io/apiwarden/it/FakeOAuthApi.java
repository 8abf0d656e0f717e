package io.apiwarden.it;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * The API of the spec in miniature, for MockWebServer: a token endpoint at {@code /auth/token}
 * that issues {@link #ISSUED_TOKEN}, and an API under {@code /api/v1} that accepts only that
 * token. The first {@link #rateLimitFirst} API requests are throttled, and the next one after each
 * request to {@code /rate-limit-next} (outside the API: for an app that sets the scene itself), and every one
 * in the window a request to {@code /rate-limit-window} opens (see {@link #rateLimitWindowMillis}). The
 * token endpoint takes the refresh-token grant and, for the client {@link #clientId} with
 * {@link #clientSecret} (HTTP Basic or in the form), the client-credentials grant; it counts requests
 * per grant.
 */
final class FakeOAuthApi extends Dispatcher {
    static final String ISSUED_TOKEN = "issued-access-7f3a9c";
    static final String ROTATED_REFRESH_TOKEN = "rotated-refresh-51d2e8";

    final List<RecordedRequest> tokenRequests = new CopyOnWriteArrayList<>();
    final List<RecordedRequest> apiRequests = new CopyOnWriteArrayList<>();
    final List<Long> apiArrivalNanos = new CopyOnWriteArrayList<>();
    final List<RecordedRequest> otherRequests = new CopyOnWriteArrayList<>();
    private final AtomicInteger throttled = new AtomicInteger();
    private final AtomicInteger throttleNext = new AtomicInteger();
    volatile int rateLimitFirst;
    /**
     * When above zero, the first API request opens a window of this many milliseconds in which every
     * API request is refused for the global rate limit, with {@code Retry-After} (whole seconds left,
     * rounded up); {@link #duringWindow} counts the ones after the first.
     */
    volatile long rateLimitWindowMillis;

    private volatile long windowOpenedNanos = Long.MIN_VALUE;
    /** The window a request to {@code /rate-limit-window} opens at once, when {@link #rateLimitWindowMillis} is unset. */
    static final long SCENE_WINDOW_MILLIS = 3000;

    final AtomicInteger duringWindow = new AtomicInteger();
    volatile String tokenError;
    /**
     * When set, each refresh issues a token of its own ({@link #ISSUED_TOKEN} and a number) that
     * the API accepts until it is revoked: by a request to {@code /revoke} (outside the API), or
     * after {@code revokeAfterUses} uses when that is above zero.
     */
    volatile boolean revocable;

    volatile int revokeAfterUses;
    /**
     * Strict rotation, as Keycloak with no reuse: the token endpoint accepts only the refresh
     * token it issued last (starting with this one), issues a new one each time, and answers
     * any other with {@code invalid_grant}. Null: any refresh token is accepted.
     */
    volatile String currentRefreshToken;

    final AtomicInteger invalidGrants = new AtomicInteger();
    /**
     * When above zero, the first token request is held this long, or until {@link #releaseFirstTokenRequest}
     * opens, before it is looked at, as a slow token service would.
     */
    volatile long holdFirstTokenRequestMillis;

    final java.util.concurrent.CountDownLatch firstTokenRequestArrived = new java.util.concurrent.CountDownLatch(1);
    final java.util.concurrent.CountDownLatch releaseFirstTokenRequest = new java.util.concurrent.CountDownLatch(1);
    /** The client the client-credentials grant is issued to; null: that grant is refused with invalid_client. */
    volatile String clientId;

    volatile String clientSecret;
    /** Token requests by {@code grant_type}, as the server read it. */
    private final Map<String, AtomicInteger> requestsByGrant = new ConcurrentHashMap<>();

    private final Map<String, AtomicInteger> usesLeft = new ConcurrentHashMap<>();
    private final AtomicInteger issued = new AtomicInteger();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.equals("/auth/token")) {
            tokenRequests.add(request);
            firstTokenRequestArrived.countDown();
            if (holdFirstTokenRequestMillis > 0 && tokenRequests.size() == 1) {
                try {
                    releaseFirstTokenRequest.await(
                            holdFirstTokenRequestMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            String form = request.getBody().utf8();
            String grantType = String.valueOf(formValue(form, "grant_type"));
            requestsByGrant.computeIfAbsent(grantType, g -> new AtomicInteger()).incrementAndGet();
            if (grantType.equals("client_credentials")) {
                return clientCredentials(request.getHeaders().get("Authorization"), form);
            }
            String refreshToken = formValue(form, "refresh_token");
            String rotated = ROTATED_REFRESH_TOKEN;
            synchronized (this) {
                if (currentRefreshToken != null) {
                    if (!currentRefreshToken.equals(refreshToken)) {
                        invalidGrants.incrementAndGet();
                        return json(400, "{\"error\":\"invalid_grant\"}");
                    }
                    rotated = ROTATED_REFRESH_TOKEN + "-" + tokenRequests.size();
                    currentRefreshToken = rotated;
                }
            }
            if (tokenError != null) {
                return json(400, "{\"error\":\"" + tokenError + "\",\"error_description\":\"refresh token revoked\"}");
            }
            return json(
                    200,
                    "{\"access_token\":\"" + issue() + "\",\"token_type\":\"Bearer\",\"expires_in\":3600,"
                            + "\"refresh_token\":\"" + rotated + "\"}");
        }
        if (path.equals("/revoke")) {
            usesLeft.clear();
            return new MockResponse.Builder().code(200).body("revoked").build();
        }
        if (path.equals("/rate-limit-window")) {
            synchronized (this) {
                if (rateLimitWindowMillis <= 0) {
                    rateLimitWindowMillis = SCENE_WINDOW_MILLIS;
                }
                windowOpenedNanos = System.nanoTime();
            }
            return new MockResponse.Builder().code(200).body("window open").build();
        }
        if (path.equals("/rate-limit-next")) {
            throttleNext.incrementAndGet();
            return new MockResponse.Builder().code(200).body("next refused").build();
        }
        if (!path.startsWith("/api/v1")) {
            otherRequests.add(request);
            return new MockResponse.Builder().code(200).body("other").build();
        }
        apiArrivalNanos.add(System.nanoTime());
        apiRequests.add(request);
        if (rateLimitWindowMillis > 0) {
            long now = System.nanoTime();
            long left;
            synchronized (this) {
                boolean opening = windowOpenedNanos == Long.MIN_VALUE;
                if (opening) {
                    windowOpenedNanos = now;
                }
                left = windowOpenedNanos + rateLimitWindowMillis * 1_000_000L - now;
                if (left > 0 && !opening) {
                    duringWindow.incrementAndGet();
                }
            }
            if (left > 0) {
                return json(429, "{\"message\":\"API rate limit exceeded (global)\"}")
                        .newBuilder()
                        .addHeader("Retry-After", Long.toString((left + 999_999_999L) / 1_000_000_000L))
                        .build();
            }
        }
        if (throttled.getAndIncrement() < rateLimitFirst || throttleNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            return json(429, "{\"message\":\"API rate limit exceeded (global)\"}");
        }
        if (!accepts(request.getHeaders().get("Authorization"))) {
            return new MockResponse.Builder()
                    .code(401)
                    .addHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"")
                    .body("{\"message\":\"OAuth invalid token\"}")
                    .build();
        }
        return new MockResponse.Builder().code(200).body("user").build();
    }

    /** What the tokens this service issues begin with: two services in one test issue tokens of their own. */
    volatile String issuedToken = ISSUED_TOKEN;

    private String issue() {
        String token = issuedToken;
        if (revocable) {
            token = issuedToken + "-" + issued.incrementAndGet();
            usesLeft.put(token, new AtomicInteger(revokeAfterUses > 0 ? revokeAfterUses : Integer.MAX_VALUE));
        }
        return token;
    }

    /**
     * RFC 6749 section 4.4: the client authenticates with HTTP Basic (id and secret form-encoded, then
     * base64) or in the form. A wrong secret gets invalid_client, with a description that quotes the
     * secret it was sent, as careless servers do: the agent must still never show it.
     */
    private MockResponse clientCredentials(String authorization, String form) {
        String id = formValue(form, "client_id");
        String secret = formValue(form, "client_secret");
        if (authorization != null && authorization.startsWith("Basic ")) {
            String pair = new String(
                    java.util.Base64.getDecoder().decode(authorization.substring(6)),
                    java.nio.charset.StandardCharsets.UTF_8);
            int colon = pair.indexOf(':');
            id = decode(pair.substring(0, colon));
            secret = decode(pair.substring(colon + 1));
        }
        if (clientId == null
                || !clientId.equals(id)
                || !String.valueOf(clientSecret).equals(secret)) {
            return new MockResponse.Builder()
                    .code(401)
                    .addHeader("WWW-Authenticate", "Basic realm=\"token\"")
                    .addHeader("Content-Type", "application/json")
                    .body("{\"error\":\"invalid_client\",\"error_description\":\"client " + id + " with secret "
                            + secret + " is unknown\"}")
                    .build();
        }
        return json(200, "{\"access_token\":\"" + issue() + "\",\"token_type\":\"Bearer\",\"expires_in\":3600}");
    }

    /** How many token requests came with this {@code grant_type}. */
    int tokenRequests(String grantType) {
        AtomicInteger n = requestsByGrant.get(grantType);
        return n == null ? 0 : n.get();
    }

    private boolean accepts(String authorization) {
        if (!revocable) {
            return ("Bearer " + issuedToken).equals(authorization);
        }
        AtomicInteger left = authorization == null ? null : usesLeft.get(authorization.substring("Bearer ".length()));
        return left != null && left.getAndDecrement() > 0;
    }

    /** How many tokens were issued while {@link #revocable}. */
    int issuedCount() {
        return issued.get();
    }

    private static String formValue(String form, String name) {
        for (String pair : form.split("&")) {
            if (pair.startsWith(name + "=")) {
                return decode(pair.substring(name.length() + 1));
            }
        }
        return null;
    }

    private static String decode(String formEncoded) {
        return java.net.URLDecoder.decode(formEncoded, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }
}
