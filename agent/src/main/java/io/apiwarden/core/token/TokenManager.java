package io.apiwarden.core.token;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.telemetry.RefreshObserver;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Holds the current access token and refreshes it, one refresh at a time for the whole JVM.
 *
 * <ul>
 *   <li>Single flight: every caller that needs a refresh while one runs shares it.
 *   <li>Keyed on the failed token: a caller whose rejected token was already replaced gets the
 *       current one at once, without a second refresh.
 *   <li>Ahead of expiry: a call made inside the refresh window ({@link #refreshWindow}) uses the
 *       current token and starts a refresh in the background, so most calls never see a 401.
 *       Nothing runs while the app makes no calls.
 *   <li>Rotation: a new refresh token is written to its file before the access token that came with
 *       it reaches any caller; the write is prepared before the token request goes out.
 *   <li>A permanent refusal ({@code invalid_grant}) stops all refreshing: one error line, then
 *       the API's own responses reach the app.
 *   <li>After a failed refresh, callers within {@link #FAILURE_COOL_DOWN} fail fast instead of
 *       each asking a struggling token service again.
 *   <li>A token refused within {@link #MIN_AGE_TO_REFRESH_ON_REJECTION} of its issue is not
 *       replaced: the spec's "insufficient permissions" is the same error, and a new token has
 *       the same rights.
 * </ul>
 */
public final class TokenManager {
    /** Spring Security refreshes 60 s ahead; a shorter life is refreshed at 80% of it. */
    static final Duration MAX_REFRESH_AHEAD = Duration.ofSeconds(60);
    /** Long enough that a storm of 401s during an outage of the token service asks it once. */
    static final Duration FAILURE_COOL_DOWN = Duration.ofSeconds(5);
    /**
     * A token refused younger than this is not refreshed again: the refusal is about rights, not
     * age. Bounds the refreshes that a resource the token may not touch can cause to one per 10 s.
     */
    static final Duration MIN_AGE_TO_REFRESH_ON_REJECTION = Duration.ofSeconds(10);
    /** Longer lives are treated as a year: "never expires" values must not overflow the clock. */
    static final Duration MAX_LIFETIME = Duration.ofDays(365);

    private final TokenEndpoint endpoint;
    private final RefreshTokenFile refreshTokenFile;
    private final Clock clock;
    private final Supplier<RefreshObserver> observers;
    private final Object lock = new Object();

    private volatile AccessToken current;
    private String refreshToken;
    private CompletableFuture<AccessToken> inFlight;
    private boolean stopped;
    private Instant coolDownUntil = Instant.MIN;
    private long generation;
    private volatile String lastFailure;

    /**
     * @param endpoint where refreshes go; null when none is configured (the token is only attached)
     * @param accessToken the configured first token, or null
     * @param refreshToken the configured refresh token, or null
     * @param refreshTokenFile where a rotated refresh token is written, or null
     */
    public TokenManager(TokenEndpoint endpoint, String accessToken, String refreshToken,
                        RefreshTokenFile refreshTokenFile, Clock clock) {
        this(endpoint, accessToken, refreshToken, refreshTokenFile, clock, () -> RefreshObserver.NOOP);
    }

    /** As above, with each refresh reported to an observer from {@code observers}. */
    public TokenManager(TokenEndpoint endpoint, String accessToken, String refreshToken,
                        RefreshTokenFile refreshTokenFile, Clock clock, Supplier<RefreshObserver> observers) {
        this.observers = observers;
        this.endpoint = endpoint;
        this.refreshToken = refreshToken;
        this.refreshTokenFile = refreshTokenFile;
        this.clock = clock;
        this.current = accessToken == null ? null : new AccessToken(accessToken, 0, null, null, null);
    }

    /** Whether a refresh can be attempted at all. */
    public boolean canRefresh() {
        synchronized (lock) {
            return endpoint != null && refreshToken != null && !stopped;
        }
    }

    /** Why the last refresh failed, or null when none did; never holds a token. */
    public String lastFailure() {
        return lastFailure;
    }

    /** The token now held, or null. */
    public AccessToken current() {
        return current;
    }

    /**
     * The token to send with a new call. Completes at once unless there is no usable token yet
     * (none configured, or expired), in which case it completes when a refresh ends; after a
     * failed refresh it completes with what there is (possibly null) and lets the API decide.
     */
    public CompletableFuture<AccessToken> tokenForRequest() {
        AccessToken t = current;
        Instant now = clock.instant();
        if (t != null && !t.isExpired(now)) {
            if (t.isDueForRefresh(now)) {
                refresh(t);
            }
            return CompletableFuture.completedFuture(t);
        }
        return refresh(t).handle((fresh, failure) -> failure == null ? fresh : t);
    }

    /**
     * A new token for a call whose token {@code rejected} the API refused. Completes with the
     * current token when another caller already replaced {@code rejected}; otherwise refreshes
     * (or joins the refresh under way). Completes exceptionally with
     * {@link TokenRefreshException} when no new token can be had.
     */
    public CompletableFuture<AccessToken> tokenAfterRejection(AccessToken rejected) {
        return refresh(rejected, true);
    }

    private CompletableFuture<AccessToken> refresh(AccessToken failed) {
        return refresh(failed, false);
    }

    private CompletableFuture<AccessToken> refresh(AccessToken failed, boolean rejected) {
        CompletableFuture<AccessToken> mine;
        String usingRefreshToken;
        synchronized (lock) {
            Instant instant = clock.instant();
            AccessToken now = current;
            if (now != null && now != failed && !now.isExpired(instant)) {
                return CompletableFuture.completedFuture(now);
            }
            if (inFlight != null) {
                return inFlight;
            }
            if (endpoint == null || refreshToken == null) {
                return failed("no refresh is possible: set apiwarden.refresh-token and apiwarden.auth-url", true);
            }
            if (stopped) {
                return failed("refreshing is stopped after a permanent refusal", true);
            }
            if (instant.isBefore(coolDownUntil)) {
                return failed("the last refresh failed moments ago", false);
            }
            if (rejected && now != null && now.isYoungerThan(MIN_AGE_TO_REFRESH_ON_REJECTION, instant)) {
                // A token this new was refused for what it may do, not for its age ("insufficient
                // permissions" is the same error): a new one would be refused too.
                return failed("the token was issued moments ago; a new one would not be allowed more", false);
            }
            mine = new CompletableFuture<>();
            inFlight = mine;
            usingRefreshToken = refreshToken;
        }
        RefreshObserver observer = observe();
        mine.whenComplete((t, e) -> observer.end(e == null ? "success" : asRefreshException(e).permanent() ? "refused" : "failed"));
        // Before the request goes out, not while it is out: a token service that answers faster than the
        // JVM's first preparation (cold, tens of ms) would otherwise find the answer waiting for it.
        RefreshTokenFile.Replacement replacement = prepareWrite();
        CompletableFuture<TokenGrant> grant;
        try {
            grant = endpoint.refresh(usingRefreshToken);
        } catch (Throwable t) {
            grant = CompletableFuture.failedFuture(new TokenRefreshException(
                    "the token request failed (" + t.getClass().getSimpleName() + ")", false));
        }
        grant.whenComplete((g, failure) -> {
            try {
                finish(mine, usingRefreshToken, g, failure, replacement);
            } catch (Throwable t) {
                // Whatever went wrong, no caller may wait for this refresh forever.
                synchronized (lock) {
                    if (inFlight == mine) {
                        inFlight = null;
                    }
                    coolDownUntil = clock.instant().plus(FAILURE_COOL_DOWN);
                }
                AgentLog.once(AgentLog.Level.ERROR, "refresh-finish", "a token response could not be used", t);
                mine.completeExceptionally(new TokenRefreshException("the token response could not be used", false));
            }
        });
        return mine;
    }

    private void finish(CompletableFuture<AccessToken> mine, String usedRefreshToken, TokenGrant grant, Throwable failure,
                        RefreshTokenFile.Replacement replacement) {
        String rotated = failure == null ? grant.refreshToken().filter(r -> !r.equals(usedRefreshToken)).orElse(null) : null;
        try {
            if (rotated != null) {
                // Before the new access token is published: the service revoked the old refresh token when it
                // answered, so until the new one is on disk a crash logs the app out. Callers wait these few
                // milliseconds instead of running ahead of the file.
                persist(rotated, replacement);
            }
        } finally {
            if (replacement != null) {
                replacement.close();
            }
        }
        AccessToken fresh = null;
        TokenRefreshException error = null;
        synchronized (lock) {
            inFlight = null;
            if (failure == null) {
                Instant now = clock.instant();
                generation++;
                Duration life = grant.expiresIn().map(l -> l.compareTo(MAX_LIFETIME) > 0 ? MAX_LIFETIME : l).orElse(null);
                Instant expiresAt = life == null ? null : now.plus(life);
                Instant refreshAt = life == null ? null : expiresAt.minus(refreshWindow(life));
                fresh = new AccessToken(grant.accessToken(), generation, now, expiresAt, refreshAt);
                current = fresh;
                if (rotated != null) {
                    refreshToken = rotated;
                }
            } else {
                error = asRefreshException(failure);
                lastFailure = error.getMessage();
                if (error.permanent()) {
                    stopped = true;
                } else {
                    coolDownUntil = clock.instant().plus(FAILURE_COOL_DOWN);
                }
            }
        }
        if (fresh != null) {
            AgentLog.debug("access token refreshed: " + fresh);
            mine.complete(fresh);
        } else {
            if (error.permanent()) {
                AgentLog.error("token refresh refused for good, calls now go out with the last token: " + error.getMessage());
            } else {
                AgentLog.warn("token refresh failed: " + error.getMessage());
            }
            mine.completeExceptionally(error);
        }
    }

    private RefreshObserver observe() {
        try {
            return observers.get();
        } catch (RuntimeException e) {
            return RefreshObserver.NOOP;
        }
    }

    /** How long before expiry a token is refreshed: 60 s, or a fifth of a shorter life. */
    static Duration refreshWindow(Duration lifetime) {
        Duration fifth = lifetime.dividedBy(5);
        return fifth.compareTo(MAX_REFRESH_AHEAD) < 0 ? fifth : MAX_REFRESH_AHEAD;
    }

    /**
     * Starts a write of the refresh-token file for the refresh about to be asked for, or null when there is
     * no file or it cannot be prepared (the write is then tried whole, and reports its error).
     */
    private RefreshTokenFile.Replacement prepareWrite() {
        if (refreshTokenFile == null) {
            return null;
        }
        try {
            return refreshTokenFile.prepare();
        } catch (Throwable e) {
            // Whatever it is, the refresh goes on: no caller may wait for a refresh that never started.
            return null;
        }
    }

    /**
     * Writes a rotated refresh token. Writes never overlap: the refresh in flight stays in flight until
     * its write is done, and no other refresh starts before.
     */
    private void persist(String rotated, RefreshTokenFile.Replacement replacement) {
        if (refreshTokenFile == null) {
            return;
        }
        try {
            if (replacement != null) {
                replacement.commit(rotated);
            } else {
                refreshTokenFile.write(rotated);
            }
        } catch (IOException | RuntimeException e) {
            AgentLog.error("the rotated refresh token could not be written to " + refreshTokenFile.path()
                    + "; it is kept in memory, but a restart will need a new one. Make the folder writable for this process", e);
        }
    }

    private static TokenRefreshException asRefreshException(Throwable failure) {
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (t instanceof TokenRefreshException) {
            return (TokenRefreshException) t;
        }
        return new TokenRefreshException("the token request failed (" + t.getClass().getSimpleName() + ")", false);
    }

    private static CompletableFuture<AccessToken> failed(String message, boolean permanent) {
        return CompletableFuture.failedFuture(new TokenRefreshException(message, permanent));
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "TokenManager{current=" + current + ", canRefresh=" + canRefresh() + "}";
    }
}
