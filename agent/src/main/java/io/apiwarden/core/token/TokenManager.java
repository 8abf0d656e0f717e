package io.apiwarden.core.token;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.log.KnownSecrets;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.token.store.TokenState;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Holds the current access token and refreshes it, one refresh at a time for the whole JVM,
 * and, through a shared store, one at a time for every JVM of the same OAuth client.
 *
 * <ul>
 *   <li>Single flight: every caller that needs a refresh while one runs shares it.
 *   <li>Keyed on the failed token: a caller whose rejected token was already replaced gets the
 *       current one at once, without a second refresh.
 *   <li>Ahead of expiry: a call made inside the refresh window ({@link #refreshWindow}) uses the
 *       current token and starts a refresh in the background, so most calls never see a 401.
 *       Nothing runs while the app makes no calls.
 *   <li>A refused token is replaced whatever its age (revoked, or expired early). Refusals of
 *       a token's rights are told apart by the resend policy, on evidence, not here.
 *   <li>Shared: each refresh goes through {@link StoreRefresh}, which reads the store first and
 *       adopts a newer state than this JVM's (a JVM started with a stale secret takes the
 *       fleet's on its first refresh). A configured access token is tried first: the first call
 *       costs no store I/O, and a refused one costs a 401 and a read, not a token request.
 *   <li>Rotation: a new refresh token replaces the old one in memory, in the store and in its
 *       file <em>before</em> any caller gets the new access token, so no call relies on a token
 *       whose refresh token a crash could lose.
 *   <li>A permanent refusal ({@code invalid_grant}, {@code invalid_client}) stops refreshing with
 *       what was refused (that refresh token, or the client credentials): one error line, then the
 *       API's own responses reach the app. With a shared store, a newer state another JVM writes
 *       is still adopted.
 *   <li>Which {@link Grant} fills the state is the endpoint's business: only "what does a request
 *       spend" ({@link Grant#credential}) is asked here, to remember a refusal by.
 *   <li>After a failed refresh, callers within {@link #FAILURE_COOL_DOWN} fail fast instead of
 *       each asking a struggling token service again.
 * </ul>
 */
public final class TokenManager {
    /** Spring Security refreshes 60 s ahead; a shorter life is refreshed at 80% of it. */
    static final Duration MAX_REFRESH_AHEAD = Duration.ofSeconds(60);
    /** Long enough that a storm of 401s during an outage of the token service asks it once. */
    static final Duration FAILURE_COOL_DOWN = Duration.ofSeconds(5);
    /** Longer lives are treated as a year: "never expires" values must not overflow the clock. */
    static final Duration MAX_LIFETIME = Duration.ofDays(365);

    private final boolean canEverRefresh;
    private final Grant grant;
    private final RefreshTokenFile refreshTokenFile;
    private final Clock clock;
    private final Supplier<RefreshObserver> observers;
    private final TokenEndpoint endpoint;
    /** Made by the first refresh (under {@link #lock}): a JVM that never refreshes loads none of its classes. */
    private StoreRefresh refresher;

    private final TokenSharing sharing;
    private final ApiLog log;
    private final Object lock = new Object();

    private volatile AccessToken current;
    /**
     * The last token handed out at once, as a completed future: made once per token, not per call. Shared by
     * every caller, which only reads it (a completed future cannot be completed or cancelled again).
     */
    private volatile CompletableFuture<AccessToken> ready;
    /** The state this JVM holds: generation 0 until it meets the store. */
    private TokenState held;

    private CompletableFuture<AccessToken> inFlight;
    /** What the token service refused for good ({@link Grant#credential}): never sent again; or null. */
    private String refusedCredential;

    private Instant coolDownUntil = Instant.MIN;
    private volatile String lastFailure;
    /** The file the first token came from, followed as it changes; null when the token was not from a file. */
    private volatile AccessTokenFile accessTokenFile;

    /**
     * @param endpoint where refreshes go; null when none is configured (the token is only attached)
     * @param accessToken the configured first token, or null
     * @param refreshToken the configured refresh token, or null (always, for client credentials)
     * @param refreshTokenFile where a rotated refresh token is written, or null
     */
    public TokenManager(
            TokenEndpoint endpoint,
            String accessToken,
            String refreshToken,
            RefreshTokenFile refreshTokenFile,
            Clock clock) {
        this(
                endpoint,
                accessToken,
                refreshToken,
                refreshTokenFile,
                clock,
                () -> RefreshObserver.NOOP,
                TokenSharing.none(clock));
    }

    /**
     * As above, with each refresh reported to an observer from {@code observers}, and the state
     * shared as {@code sharing} says.
     */
    public TokenManager(
            TokenEndpoint endpoint,
            String accessToken,
            String refreshToken,
            RefreshTokenFile refreshTokenFile,
            Clock clock,
            Supplier<RefreshObserver> observers,
            TokenSharing sharing) {
        this(endpoint, accessToken, refreshToken, refreshTokenFile, clock, observers, sharing, ApiLog.UNNAMED);
    }

    /** As above, logging to {@code log} (which names the API when there are several). */
    public TokenManager(
            TokenEndpoint endpoint,
            String accessToken,
            String refreshToken,
            RefreshTokenFile refreshTokenFile,
            Clock clock,
            Supplier<RefreshObserver> observers,
            TokenSharing sharing,
            ApiLog log) {
        this.log = log;
        this.observers = observers;
        this.canEverRefresh = endpoint != null;
        this.grant = endpoint == null ? Grant.refreshToken(null) : endpoint.grant();
        this.refreshTokenFile = sharing.keepsRefreshTokenFile() ? null : refreshTokenFile;
        this.clock = clock;
        this.sharing = sharing;
        this.endpoint = endpoint;
        this.held = new TokenState(0, accessToken, null, null, refreshToken);
        this.current = accessToken == null ? null : new AccessToken(accessToken, 0, null, null);
    }

    /**
     * Follows the file the first access token came from: a new token written to it replaces the token held, from
     * the first call after the check interval, or at once when the API refuses the token held ({@link
     * AccessTokenFile}).
     */
    public TokenManager following(AccessTokenFile file) {
        this.accessTokenFile = file;
        return this;
    }

    /** Whether a refresh can be attempted at all: a followed token file may hold a new token too. */
    public boolean canRefresh() {
        if (accessTokenFile != null) {
            return true;
        }
        synchronized (lock) {
            // With a shared store, another JVM may have stored what this one lacks.
            String credential = grant.credential(held);
            return canEverRefresh && (sharing.shared || (credential != null && !credential.equals(refusedCredential)));
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
        takeFromFile(false);
        AccessToken t = current;
        long now = clock.millis();
        if (t != null && !t.isExpired(now) && proof().canProve(t.boundKey())) {
            // A token bound to the DPoP key before the one now read is still proved with that key, and replaced
            // now: the calls go on while a token bound to the new key is asked for.
            if (t.isDueForRefresh(now) || !proof().boundToCurrentKey(t.boundKey(), false)) {
                refresh(t);
            }
            return ready(t);
        }
        return refresh(t).handle(new FreshOrHeld(t));
    }

    /**
     * The refreshed token, or the one held when the refresh failed (the API then judges it). A class, not a lambda:
     * the first call of a JVM comes this way.
     */
    private static final class FreshOrHeld implements BiFunction<AccessToken, Throwable, AccessToken> {
        private final AccessToken held;

        FreshOrHeld(AccessToken held) {
            this.held = held;
        }

        @Override
        public AccessToken apply(AccessToken fresh, Throwable failure) {
            return failure == null ? fresh : held;
        }
    }

    /**
     * A new token for a call whose token {@code rejected} the API refused. Completes with the
     * current token when another caller already replaced {@code rejected}; otherwise refreshes
     * (or joins the refresh under way). Completes exceptionally with
     * {@link TokenRefreshException} when no new token can be had.
     */
    public CompletableFuture<AccessToken> tokenAfterRejection(AccessToken rejected) {
        // A new token in the file answers with no token request: refresh sees it is not the refused one.
        takeFromFile(true);
        return refresh(rejected);
    }

    /** {@code t} as a completed future, the one made for it before when it is still the last handed out. */
    private CompletableFuture<AccessToken> ready(AccessToken t) {
        CompletableFuture<AccessToken> r = ready;
        if (r == null || r.getNow(null) != t) {
            r = CompletableFuture.completedFuture(t);
            ready = r;
        }
        return r;
    }

    /** Holds the file's token when the file brought a new one. */
    private void takeFromFile(boolean lookNow) {
        AccessTokenFile file = accessTokenFile;
        String token = file == null ? null : file.news(lookNow);
        if (token == null) {
            return;
        }
        synchronized (lock) {
            // Its life is unknown, as the first token's: it is used until the API refuses it.
            held = new TokenState(held.generation(), token, null, null, held.refreshToken());
            current = new AccessToken(token, held.generation(), null, null);
        }
        // The file's own info line (ReloadableSecret) said that it changed: one line per change.
    }

    private CompletableFuture<AccessToken> refresh(AccessToken failed) {
        CompletableFuture<AccessToken> mine;
        TokenState known;
        String refused;
        synchronized (lock) {
            AccessToken now = current;
            if (now != null && now != failed && !now.isExpired(clock.millis()) && proof().canProve(now.boundKey())) {
                return ready(now);
            }
            if (inFlight != null) {
                return inFlight;
            }
            String credential = grant.credential(held);
            if (!canEverRefresh || (credential == null && !sharing.shared)) {
                return failed(grant.nothingToAskWith(), true);
            }
            if (!sharing.shared && credential.equals(refusedCredential)) {
                return failed("refreshing is stopped after a permanent refusal", true);
            }
            if (clock.instant().isBefore(coolDownUntil)) {
                return failed("the last refresh failed moments ago", false);
            }
            mine = new CompletableFuture<>();
            inFlight = mine;
            known = held;
            refused = refusedCredential;
        }
        RefreshObserver observer = observe();
        RefreshTokenFile.Replacement replacement = prepareWrite();
        CompletableFuture<StoreRefresh.Outcome> outcome;
        try {
            outcome = refresher().refresh(known, failed == null ? null : failed.value(), refused, observer);
        } catch (RuntimeException e) {
            outcome = CompletableFuture.failedFuture(e);
        }
        outcome.whenComplete(new Finish(mine, observer, replacement));
        return mine;
    }

    /**
     * Ends one refresh when its outcome is known. A class, not a lambda: the first refresh of a JVM is on its first
     * call's way, and a lambda's first use spins a class there.
     */
    private final class Finish implements BiConsumer<StoreRefresh.Outcome, Throwable> {
        private final CompletableFuture<AccessToken> mine;
        private final RefreshObserver observer;
        private final RefreshTokenFile.Replacement replacement;

        Finish(
                CompletableFuture<AccessToken> mine,
                RefreshObserver observer,
                RefreshTokenFile.Replacement replacement) {
            this.mine = mine;
            this.observer = observer;
            this.replacement = replacement;
        }

        @Override
        public void accept(StoreRefresh.Outcome outcome, Throwable failure) {
            try {
                finish(mine, outcome, failure, observer, replacement);
            } catch (Throwable t) {
                // Whatever went wrong, no caller may wait for this refresh forever.
                synchronized (lock) {
                    if (inFlight == mine) {
                        inFlight = null;
                    }
                    coolDownUntil = clock.instant().plus(FAILURE_COOL_DOWN);
                }
                mine.completeExceptionally(new TokenRefreshException("the token response could not be used", false));
                log.once(AgentLog.Level.ERROR, "refresh-finish", "a token response could not be used", t);
                end(observer, "failed");
            }
        }
    }

    /** What binds the tokens to a key (DPoP): asked, not kept, as the endpoint is told of it after it is made. */
    private TokenRequestProof proof() {
        return endpoint == null ? TokenRequestProof.NONE : endpoint.proof();
    }

    private StoreRefresh refresher() {
        synchronized (lock) {
            if (refresher == null) {
                refresher = new StoreRefresh(
                        sharing.store(),
                        sharing.shared,
                        endpoint,
                        grant,
                        sharing.scheduler,
                        sharing.storeIo,
                        clock,
                        TokenSharing.LEASE_TTL,
                        TokenSharing.MAX_LEASE_WAIT,
                        log);
            }
            return refresher;
        }
    }

    private void finish(
            CompletableFuture<AccessToken> mine,
            StoreRefresh.Outcome outcome,
            Throwable failure,
            RefreshObserver observer,
            RefreshTokenFile.Replacement replacement) {
        try {
            settle(mine, outcome, failure, observer, replacement);
        } finally {
            if (replacement != null) {
                replacement.close();
            }
        }
    }

    /** @param write the file's write prepared for the rotated refresh token, or null */
    private void settle(
            CompletableFuture<AccessToken> mine,
            StoreRefresh.Outcome outcome,
            Throwable failure,
            RefreshObserver observer,
            RefreshTokenFile.Replacement write) {
        if (failure != null) {
            TokenRefreshException error = StoreRefresh.asRefreshException(failure);
            boolean newlyRefused = false;
            synchronized (lock) {
                inFlight = null;
                lastFailure = error.getMessage();
                String used = refresher.lastUsedCredential() != null
                        ? refresher.lastUsedCredential()
                        : grant.credential(held);
                if (error.permanent() && used != null) {
                    newlyRefused = !used.equals(refusedCredential);
                    refusedCredential = used;
                }
                if (!error.permanent() || sharing.shared) {
                    // Shared, a permanent refusal is looked at again later: another JVM may store a newer token.
                    coolDownUntil = clock.instant().plus(FAILURE_COOL_DOWN);
                }
            }
            mine.completeExceptionally(error);
            if (!error.permanent()) {
                log.warn("token refresh failed: " + error.getMessage());
            } else if (newlyRefused) {
                // Once per refused credential: with a shared store, later looks at the store are quiet.
                log.error("token refresh refused for good, calls now go out with the last token"
                        + (current == null ? " (none)" : "") + ": " + error.getMessage());
            }
            end(observer, error.permanent() ? "refused" : "failed");
            return;
        }
        TokenState state = outcome.state;
        String previousRefreshToken;
        synchronized (lock) {
            previousRefreshToken = held.refreshToken();
        }
        if (state.refreshToken() != null && !state.refreshToken().equals(previousRefreshToken)) {
            // Before any caller, new or waiting, can have the new access token: see the class comment.
            persist(state.refreshToken(), write);
        }
        AccessToken fresh;
        synchronized (lock) {
            fresh = hold(state);
            inFlight = null;
        }
        mine.complete(fresh);
        log.debug(
                (outcome.adopted ? "access token taken from " + sharing.describe() + ": " : "access token refreshed: ")
                        + fresh);
        end(observer, outcome.adopted ? "adopted" : "success");
    }

    /** Telemetry never keeps a refresh from ending. */
    private static void end(RefreshObserver observer, String result) {
        try {
            observer.end(result);
        } catch (RuntimeException e) {
            AgentLog.once(AgentLog.Level.WARN, "refresh-telemetry", "a refresh's span could not be ended", e);
        }
    }

    /** Makes {@code state} the one held; called under {@link #lock}. */
    private AccessToken hold(TokenState state) {
        held = state;
        KnownSecrets.remember(state.accessToken());
        KnownSecrets.remember(state.refreshToken());
        AccessToken fresh = state.accessToken() == null
                ? null
                : new AccessToken(
                        state.accessToken(),
                        state.generation(),
                        state.expiresAt(),
                        refreshAt(state.obtainedAt(), state.expiresAt()),
                        state.boundKey());
        current = fresh;
        return fresh;
    }

    private static Instant refreshAt(Instant obtainedAt, Instant expiresAt) {
        if (expiresAt == null) {
            return null;
        }
        Duration life = obtainedAt == null || !obtainedAt.isBefore(expiresAt)
                ? MAX_REFRESH_AHEAD.multipliedBy(5)
                : Duration.between(obtainedAt, expiresAt);
        return expiresAt.minus(refreshWindow(life));
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
     * Starts the write of the refresh-token file before the token request goes out, when this JVM
     * keeps the file itself (no store does): the answer then waits only for write, force and
     * rename. Null when there is no file or it cannot be prepared (the write is tried whole).
     */
    private RefreshTokenFile.Replacement prepareWrite() {
        if (refreshTokenFile == null) {
            return null;
        }
        try {
            return refreshTokenFile.prepare();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Writes a rotated refresh token to its file. Writes never overlap: the refresh stays in flight
     * until its write is done, and no other refresh starts before.
     */
    private void persist(String rotated, RefreshTokenFile.Replacement prepared) {
        if (refreshTokenFile == null) {
            return;
        }
        try {
            if (prepared != null) {
                prepared.commit(rotated);
            } else {
                refreshTokenFile.write(rotated);
            }
        } catch (IOException | RuntimeException e) {
            log.once(
                    AgentLog.Level.ERROR,
                    "refresh-file-write",
                    "the rotated refresh token could not be written to "
                            + refreshTokenFile.path() + " (said once); it is kept in memory"
                            + (sharing.shared ? " and in " + sharing.describe() : ", but a restart will need a new one")
                            + ". Make the folder writable for this process",
                    e);
        }
    }

    private static CompletableFuture<AccessToken> failed(String message, boolean permanent) {
        return CompletableFuture.failedFuture(new TokenRefreshException(message, permanent));
    }

    /** Never shows a token. */
    @Override
    public String toString() {
        return "TokenManager{current=" + current + ", grant=" + grant.type() + ", canRefresh=" + canRefresh()
                + ", store=" + sharing.describe() + "}";
    }
}
