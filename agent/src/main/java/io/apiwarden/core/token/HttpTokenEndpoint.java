package io.apiwarden.core.token;

import io.apiwarden.core.backoff.RetryAfter;
import io.apiwarden.core.time.DelayScheduler;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The refresh-token grant over HTTP (RFC 6749 section 6): a form POST to the token endpoint,
 * with HTTP Basic client authentication when a client id is configured (section 2.3.1).
 *
 * <p>A 5xx, 408 or 429 answer, a connection failure or a time-out is retried a few times with
 * a short back-off; anything else is reported at once.
 */
public final class HttpTokenEndpoint implements TokenEndpoint {
    /** One try and two retries: enough to ride out a restarting token service, short enough that a caller's 401 is not held long. */
    static final int MAX_ATTEMPTS = 3;
    /** Wait before the first retry; doubled for the second. */
    static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
    /** A token endpoint's Retry-After is honoured up to this: a caller is waiting on the refresh. */
    static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);
    /** RFC 6749 section 5.2 errors after which the same refresh token can never work. */
    private static final Set<String> PERMANENT_ERRORS =
            Set.of("invalid_grant", "invalid_client", "unauthorized_client", "unsupported_grant_type");

    private final URI tokenUrl;
    private final String basicCredentials;
    private final Duration timeout;
    private final Supplier<HttpClient> client;
    private final DelayScheduler scheduler;
    private final Clock clock;

    /**
     * @param client supplies the client for token requests; called on first use so that an app
     *     that never refreshes never creates it
     */
    public HttpTokenEndpoint(URI tokenUrl, String clientId, String clientSecret, Duration timeout,
                             Supplier<HttpClient> client, DelayScheduler scheduler, Clock clock) {
        this.tokenUrl = tokenUrl;
        this.basicCredentials = clientId == null ? null : basic(clientId, clientSecret == null ? "" : clientSecret);
        this.timeout = timeout;
        this.client = client;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<TokenGrant> refresh(String refreshToken) {
        CompletableFuture<TokenGrant> result = new CompletableFuture<>();
        TokenResponse.warmUp();
        attempt(refreshToken, 1, result);
        return result;
    }

    private void attempt(String refreshToken, int attempt, CompletableFuture<TokenGrant> result) {
        HttpRequest request = request(refreshToken);
        CompletableFuture<HttpResponse<byte[]>> sent;
        try {
            sent = client.get().sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (RuntimeException e) {
            result.completeExceptionally(new TokenRefreshException(
                    "could not send the token request (" + e.getClass().getSimpleName() + ")", false));
            return;
        }
        sent.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((response, failure) -> {
            try {
                if (failure != null) {
                    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                    retryOrFail(refreshToken, attempt, result, Duration.ZERO,
                            "the token endpoint " + tokenUrl + " did not answer (" + cause.getClass().getSimpleName()
                                    + "): check apiwarden.token-url / apiwarden.auth-url and the network");
                    return;
                }
                handle(refreshToken, attempt, result, response);
            } catch (RuntimeException e) {
                result.completeExceptionally(new TokenRefreshException(
                        "the token response could not be handled (" + e.getClass().getSimpleName() + ")", false));
            }
        });
    }

    private void handle(String refreshToken, int attempt, CompletableFuture<TokenGrant> result, HttpResponse<byte[]> response) {
        int status = response.statusCode();
        if (status == 408 || status == 429 || status >= 500) {
            Duration asked = RetryAfter.parse(response.headers().firstValue("Retry-After").orElse(null), clock.instant())
                    .orElse(Duration.ZERO);
            retryOrFail(refreshToken, attempt, result, asked,
                    "the token endpoint answered HTTP " + status + " " + MAX_ATTEMPTS + " times; the API's response goes to the app");
            return;
        }
        TokenResponse body;
        try {
            body = TokenResponse.parse(response.body());
        } catch (IOException e) {
            result.completeExceptionally(new TokenRefreshException("the token endpoint " + tokenUrl + " answered HTTP " + status
                    + " with a body that is not a JSON token response: check apiwarden.token-url", false));
            return;
        }
        if (status >= 200 && status < 300) {
            if (body.accessToken == null) {
                result.completeExceptionally(new TokenRefreshException(
                        "the token response has no access_token: check apiwarden.token-url", false));
            } else if (!TokenText.isValid(body.accessToken) || (body.refreshToken != null && !TokenText.isValid(body.refreshToken))) {
                result.completeExceptionally(new TokenRefreshException(
                        "the token response holds a token with spaces or control characters, which cannot go into a header", false));
            } else if (!body.isBearer()) {
                result.completeExceptionally(new TokenRefreshException("the token endpoint issued a token of type '"
                        + body.tokenType + "', not Bearer: this API needs bearer tokens", true));
            } else {
                result.complete(new TokenGrant(body.accessToken, body.expiresIn, body.refreshToken));
            }
            return;
        }
        String error = body.error == null ? "no OAuth error code" : body.error;
        boolean permanent = PERMANENT_ERRORS.contains(error);
        String advice = permanent
                ? "the refresh token or client credentials are no longer accepted: give the agent a new refresh token and restart"
                : "check apiwarden.token-url and the client credentials";
        result.completeExceptionally(new TokenRefreshException(
                "the token endpoint refused the refresh: HTTP " + status + ", " + error + "; " + advice, permanent));
    }

    private void retryOrFail(String refreshToken, int attempt, CompletableFuture<TokenGrant> result, Duration asked, String message) {
        if (attempt >= MAX_ATTEMPTS) {
            result.completeExceptionally(new TokenRefreshException(message, false));
            return;
        }
        Duration backoff = FIRST_RETRY_DELAY.multipliedBy(1L << (attempt - 1));
        Duration delay = asked.compareTo(backoff) > 0 ? asked : backoff;
        if (delay.compareTo(MAX_RETRY_DELAY) > 0) {
            delay = MAX_RETRY_DELAY;
        }
        scheduler.schedule(delay, () -> attempt(refreshToken, attempt + 1, result));
    }

    private HttpRequest request(String refreshToken) {
        String form = "grant_type=refresh_token&refresh_token=" + URLEncoder.encode(refreshToken, StandardCharsets.UTF_8);
        HttpRequest.Builder b = HttpRequest.newBuilder(tokenUrl)
                .timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        if (basicCredentials != null) {
            b.header("Authorization", basicCredentials);
        }
        return b.build();
    }

    /** RFC 6749 section 2.3.1: both parts are form-encoded before they are joined and base64-encoded. */
    private static String basic(String id, String secret) {
        String pair = URLEncoder.encode(id, StandardCharsets.UTF_8) + ":" + URLEncoder.encode(secret, StandardCharsets.UTF_8);
        return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }

    /** Never shows credentials. */
    @Override
    public String toString() {
        return "HttpTokenEndpoint{" + tokenUrl + ", clientAuthentication=" + (basicCredentials != null) + "}";
    }
}
