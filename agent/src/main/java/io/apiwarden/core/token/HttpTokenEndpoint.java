package io.apiwarden.core.token;

import io.apiwarden.core.backoff.RetryAfter;
import io.apiwarden.core.log.ServerText;
import io.apiwarden.core.secret.ReloadableSecret;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * A {@link Grant} over HTTP (RFC 6749 sections 4.4 and 6): a form POST to the token endpoint,
 * with client authentication when a client id is configured ({@link ClientAuthenticator}): a secret (RFC 6749
 * section 2.3.1), a signed assertion (RFC 7523) or a client certificate (RFC 8705). A refusal of the client
 * ({@code invalid_client}) has the credentials' files read again at once, and the request made once more when they
 * changed.
 *
 * <p>A 5xx, 408 or 429 answer, a connection failure or a time-out is retried a few times with
 * a short back-off; anything else is reported at once. An answer is read to
 * {@link #MAX_RESPONSE_BYTES}, its tokens are checked before anything holds them, and its text
 * reaches a message only through {@link ServerText}.
 */
public final class HttpTokenEndpoint implements TokenEndpoint {
    /** One try and two retries: enough to ride out a restarting token service, short enough that a caller's 401 is not held long. */
    static final int MAX_ATTEMPTS = 3;
    /** Wait before the first retry; doubled for the second. */
    static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
    /** A token endpoint's Retry-After is honoured up to this: a caller is waiting on the refresh. */
    static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);
    /**
     * The most of a token response that is read. Real ones are a few hundred bytes, a few KiB with
     * a JWT access token and an ID token; 64 KiB holds any of them (the same bound as an error
     * body's peek, {@code ResponseClassifier.BODY_PEEK_LIMIT}), while a broken or hostile
     * endpoint can cost the app no more memory than that.
     */
    static final int MAX_RESPONSE_BYTES = 64 * 1024;
    /** RFC 6749 section 5.2 errors after which the same request (refresh token, credentials, scope) can never work. */
    private static final Set<String> PERMANENT_ERRORS =
            Set.of("invalid_grant", "invalid_client", "unauthorized_client", "unsupported_grant_type", "invalid_scope");

    private final URI tokenUrl;
    private final Grant grant;
    private final ClientAuthenticator authenticator;
    private final Duration timeout;
    private final Supplier<HttpClient> client;
    private final DelayScheduler scheduler;
    private final Clock clock;
    /** What binds the tokens to a key (DPoP); {@link TokenRequestProof#NONE} for bearer tokens. */
    private volatile TokenRequestProof proof = TokenRequestProof.NONE;

    /** The refresh-token grant, with HTTP Basic client authentication when {@code clientId} is set. */
    public HttpTokenEndpoint(
            URI tokenUrl,
            String clientId,
            String clientSecret,
            Duration timeout,
            Supplier<HttpClient> client,
            DelayScheduler scheduler,
            Clock clock) {
        this(
                tokenUrl,
                Grant.refreshToken(null),
                clientId,
                clientSecret,
                ClientAuthentication.BASIC,
                timeout,
                client,
                scheduler,
                clock);
    }

    /**
     * @param clientId the client id, or null to send no client authentication
     * @param client supplies the client for token requests; called on first use so that an app
     *     that never refreshes never creates it
     */
    public HttpTokenEndpoint(
            URI tokenUrl,
            Grant grant,
            String clientId,
            String clientSecret,
            ClientAuthentication authentication,
            Duration timeout,
            Supplier<HttpClient> client,
            DelayScheduler scheduler,
            Clock clock) {
        this(
                tokenUrl,
                grant,
                clientId == null
                        ? ClientAuthenticator.NONE
                        : new SecretAuthenticator(
                                clientId,
                                ReloadableSecret.fixed("apiwarden.client-secret", clientSecret),
                                authentication),
                timeout,
                client,
                scheduler,
                clock);
    }

    /**
     * @param authenticator how the client authenticates in each request ({@link ClientAuthenticator#NONE} for not
     *     at all)
     * @param client supplies the client for token requests; called on first use so that an app
     *     that never refreshes never creates it
     */
    public static HttpTokenEndpoint of(
            URI tokenUrl,
            Grant grant,
            ClientAuthenticator authenticator,
            Duration timeout,
            Supplier<HttpClient> client,
            DelayScheduler scheduler,
            Clock clock) {
        return new HttpTokenEndpoint(tokenUrl, grant, authenticator, timeout, client, scheduler, clock);
    }

    // Private, so that the public constructors' callers passing nulls are not ambiguous between the two.
    private HttpTokenEndpoint(
            URI tokenUrl,
            Grant grant,
            ClientAuthenticator authenticator,
            Duration timeout,
            Supplier<HttpClient> client,
            DelayScheduler scheduler,
            Clock clock) {
        this.tokenUrl = tokenUrl;
        this.grant = grant;
        this.authenticator = authenticator;
        this.timeout = timeout;
        this.client = client;
        this.scheduler = scheduler;
        this.clock = clock;
    }

    @Override
    public void proveWith(TokenRequestProof proof) {
        this.proof = proof;
    }

    @Override
    public TokenRequestProof proof() {
        return proof;
    }

    @Override
    public Grant grant() {
        return grant;
    }

    @Override
    public CompletableFuture<TokenGrant> refresh(String credential) {
        CompletableFuture<TokenGrant> first = new CompletableFuture<>();
        TokenResponse.warmUp();
        String boundKey = keyForNextToken();
        attempt(credential, 1, first);
        CompletableFuture<TokenGrant> result = new CompletableFuture<>();
        first.whenComplete(new AfterFirstAsk(credential, result));
        return boundKey == null ? result : result.thenApply(g -> g.boundTo(boundKey));
    }

    /**
     * Settles a refresh from its first ask. A refused client may be one whose secret or key file changed since the last
     * look: they are read at once, and the token service asked once more when they did change. The steps of a token
     * request are classes, not lambdas: a JVM's first refresh is often on its first call's way, where a lambda's first
     * use spins a class.
     */
    private final class AfterFirstAsk implements BiConsumer<TokenGrant, Throwable> {
        private final String credential;
        private final CompletableFuture<TokenGrant> result;

        AfterFirstAsk(String credential, CompletableFuture<TokenGrant> result) {
            this.credential = credential;
            this.result = result;
        }

        @Override
        public void accept(TokenGrant grant, Throwable failure) {
            if (failure instanceof TokenRefreshException
                    && "invalid_client".equals(((TokenRefreshException) failure).oauthError())
                    && reloaded()) {
                attempt(credential, 1, result);
            } else if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(grant);
            }
        }
    }

    /** The DPoP key this request is proved with; null when the proof cannot say (its proofs then fail as well). */
    private String keyForNextToken() {
        try {
            return proof.keyForNextToken();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private boolean reloaded() {
        try {
            return authenticator.reloadNow();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void attempt(String credential, int attempt, CompletableFuture<TokenGrant> result) {
        HttpRequest request;
        try {
            // Client authentication runs here for each attempt: a signature that fails must end the refresh, not
            // escape from a retry's timer task and leave its callers waiting.
            request = request(credential);
        } catch (RuntimeException e) {
            result.completeExceptionally(new TokenRefreshException(
                    "the token request could not be made (" + e.getClass().getSimpleName()
                            + "): check apiwarden.client-auth and its key",
                    false));
            return;
        }
        CompletableFuture<HttpResponse<byte[]>> sent;
        try {
            sent = send(client.get(), request, credential);
        } catch (RuntimeException e) {
            result.completeExceptionally(new TokenRefreshException(
                    "could not send the token request (" + e.getClass().getSimpleName() + ")", false));
            return;
        }
        sent.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete(new Answered(credential, attempt, result));
    }

    /** One attempt's answer, or its failure: settles the refresh or schedules the next attempt. */
    private final class Answered implements BiConsumer<HttpResponse<byte[]>, Throwable> {
        private final String credential;
        private final int attempt;
        private final CompletableFuture<TokenGrant> result;

        Answered(String credential, int attempt, CompletableFuture<TokenGrant> result) {
            this.credential = credential;
            this.attempt = attempt;
            this.result = result;
        }

        @Override
        public void accept(HttpResponse<byte[]> response, Throwable failure) {
            answered(credential, attempt, result, response, failure);
        }
    }

    private void answered(
            String credential,
            int attempt,
            CompletableFuture<TokenGrant> result,
            HttpResponse<byte[]> response,
            Throwable failure) {
        try {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause()
                        : failure;
                if (isTooLarge(cause)) {
                    // Not retried: an endpoint that sent this once will send it again.
                    result.completeExceptionally(new TokenRefreshException(
                            "the token endpoint " + tokenUrl
                                    + " answered with a body over " + MAX_RESPONSE_BYTES / 1024
                                    + " KiB, the most a token response"
                                    + " is read to (real ones are a few KiB): check that apiwarden.token-url is the token endpoint",
                            false));
                    return;
                }
                retryOrFail(
                        credential,
                        attempt,
                        result,
                        Duration.ZERO,
                        "the token endpoint " + tokenUrl + " did not answer ("
                                + cause.getClass().getSimpleName()
                                + "): check apiwarden.token-url / apiwarden.auth-url and the network");
                return;
            }
            handle(
                    credential,
                    attempt,
                    result,
                    response.statusCode(),
                    response.headers().firstValue("Retry-After").orElse(null),
                    response.body());
        } catch (RuntimeException e) {
            result.completeExceptionally(new TokenRefreshException(
                    "the token response could not be handled (" + e.getClass().getSimpleName() + ")", false));
        }
    }

    /**
     * Sends one token request. With a proof, a demand for a nonce ({@code use_dpop_nonce}) is answered by sending
     * the request once more, with a new proof carrying the nonce; never more than once.
     */
    private CompletableFuture<HttpResponse<byte[]>> send(HttpClient c, HttpRequest request, String credential) {
        HttpResponse.BodyHandler<byte[]> handler = CappedBody.handler(MAX_RESPONSE_BYTES, KEEP_FINAL);
        TokenRequestProof p = proof;
        CompletableFuture<HttpResponse<byte[]>> first = c.sendAsync(request, handler);
        if (p == TokenRequestProof.NONE) {
            return first;
        }
        return first.thenCompose(r -> p.demandsNonce(r.statusCode(), r.headers(), r.body())
                ? c.sendAsync(request(credential), handler).thenApply(again -> {
                    // Learns the nonce this answer gives, if any; a second demand goes to the caller as it is.
                    p.demandsNonce(again.statusCode(), again.headers(), again.body());
                    return again;
                })
                : CompletableFuture.completedFuture(r));
    }

    /**
     * Settles {@code result} from one answer of the token endpoint, or schedules the next attempt.
     * Whatever the server sent, its text reaches a message only through {@link ServerText}.
     */
    void handle(
            String credential,
            int attempt,
            CompletableFuture<TokenGrant> result,
            int status,
            String retryAfter,
            byte[] responseBody) {
        if (isRetryable(status)) {
            Duration asked = RetryAfter.parse(retryAfter, clock.instant()).orElse(Duration.ZERO);
            retryOrFail(
                    credential,
                    attempt,
                    result,
                    asked,
                    "the token endpoint answered HTTP " + status + " " + MAX_ATTEMPTS
                            + " times; the API's response goes to the app");
            return;
        }
        TokenResponse body;
        try {
            body = TokenResponse.parse(responseBody);
        } catch (IOException e) {
            result.completeExceptionally(new TokenRefreshException(
                    "the token endpoint " + tokenUrl + " answered HTTP " + status
                            + " with a body that is not a JSON token response: check apiwarden.token-url",
                    false));
            return;
        }
        if (status >= 200 && status < 300) {
            try {
                result.complete(grant(credential, body));
            } catch (TokenRefreshException e) {
                result.completeExceptionally(e);
            }
            return;
        }
        String error = body.error == null ? "no OAuth error code" : safe(body.error, credential, body);
        String description =
                body.errorDescription == null ? "" : " (\"" + safe(body.errorDescription, credential, body) + "\")";
        // A client's credentials read from files can heal: the next look may find the rotated secret.
        boolean permanent = body.error != null
                && PERMANENT_ERRORS.contains(body.error)
                && !(body.error.equals("invalid_client") && authenticator.reloadable());
        String advice = permanent
                ? grant.adviceAfterRefusal(body.error)
                : "check apiwarden.token-url and the client credentials";
        result.completeExceptionally(new TokenRefreshException(
                "the token endpoint refused the " + grant.type() + " grant: HTTP " + status + ", " + error + description
                        + "; " + advice,
                permanent,
                body.error));
    }

    /** The grant in a 2xx answer, or why there is none: tokens are checked before anything else holds them. */
    private TokenGrant grant(String credential, TokenResponse body) {
        if (body.accessToken == null) {
            throw new TokenRefreshException("the token response has no access_token: check apiwarden.token-url", false);
        }
        String flaw = TokenText.accessTokenFlaw(body.accessToken);
        if (flaw != null) {
            throw new TokenRefreshException(
                    "the token response's access_token " + flaw
                            + ", so it cannot be sent as a bearer token; it was not used",
                    false);
        }
        // A refresh token the grant never uses is not kept, so it cannot spoil the answer either.
        String refreshToken = grant.keepsRefreshTokens() ? body.refreshToken : null;
        flaw = refreshToken == null ? null : TokenText.flaw(refreshToken);
        if (flaw != null) {
            throw new TokenRefreshException(
                    "the token response's refresh_token " + flaw + ", so it is not an RFC 6750 token ("
                            + TokenText.ALPHABET + "); the response was not used",
                    false);
        }
        String bound = proof.tokenType();
        if (bound != null && !bound.equalsIgnoreCase(body.tokenType)) {
            throw new TokenRefreshException(
                    "the token endpoint issued a token of type '"
                            + (body.tokenType == null ? "none" : safe(body.tokenType, credential, body)) + "', not "
                            + bound + ": the server did not bind the token to the agent's " + bound
                            + " key. Require " + bound + "-bound tokens for this client at the token service"
                            + " (Keycloak: the client's \"require DPoP-bound tokens\"), or set apiwarden.dpop.enabled=false",
                    true);
        }
        if (bound == null && !body.isBearer()) {
            throw new TokenRefreshException(
                    "the token endpoint issued a token of type '" + safe(body.tokenType, credential, body)
                            + "', not Bearer: this API needs bearer tokens",
                    true);
        }
        return new TokenGrant(body.accessToken, body.expiresIn, refreshToken);
    }

    /** Server text for a message, with every secret in play redacted: a server may echo what it was sent or issued. */
    private String safe(String text, String credential, TokenResponse body) {
        List<String> secrets = new ArrayList<>(authenticator.secretForms());
        String sent = grant.secretIn(credential);
        if (sent != null) {
            secrets.add(sent);
            secrets.add(URLEncoder.encode(sent, StandardCharsets.UTF_8));
        }
        secrets.add(body.accessToken);
        secrets.add(body.refreshToken);
        return ServerText.of(text, secrets);
    }

    /** The bodies worth keeping: those of answers that are not retried. */
    private static final IntPredicate KEEP_FINAL = new IntPredicate() {
        @Override
        public boolean test(int status) {
            return !isRetryable(status);
        }
    };

    private static boolean isRetryable(int status) {
        return status == 408 || status == 429 || status >= 500;
    }

    /** The JDK hands a body's failure on wrapped (in an IOException, say); a few causes deep is enough, and no cycle can hang. */
    private static boolean isTooLarge(Throwable t) {
        for (int depth = 0; t != null && depth < 5; depth++, t = t.getCause()) {
            if (t instanceof CappedBody.TooLarge) {
                return true;
            }
        }
        return false;
    }

    private void retryOrFail(
            String credential, int attempt, CompletableFuture<TokenGrant> result, Duration asked, String message) {
        if (attempt >= MAX_ATTEMPTS) {
            result.completeExceptionally(new TokenRefreshException(message, false));
            return;
        }
        Duration backoff = FIRST_RETRY_DELAY.multipliedBy(1L << (attempt - 1));
        Duration delay = asked.compareTo(backoff) > 0 ? asked : backoff;
        if (delay.compareTo(MAX_RETRY_DELAY) > 0) {
            delay = MAX_RETRY_DELAY;
        }
        scheduler.schedule(delay, () -> attempt(credential, attempt + 1, result));
    }

    private HttpRequest request(String credential) {
        HttpRequest.Builder b = HttpRequest.newBuilder(tokenUrl)
                .timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json");
        StringBuilder form = new StringBuilder(grant.form(credential));
        authenticator.authenticate(tokenUrl, b, form);
        proof.prove(b, tokenUrl);
        return b.POST(HttpRequest.BodyPublishers.ofString(form.toString())).build();
    }

    /** Never shows credentials. */
    @Override
    public String toString() {
        return "HttpTokenEndpoint{" + tokenUrl + ", grant=" + grant.type() + ", clientAuthentication="
                + authenticator.describe() + "}";
    }
}
