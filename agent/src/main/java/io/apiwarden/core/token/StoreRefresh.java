package io.apiwarden.core.token;

import io.apiwarden.core.log.AgentLog;
import io.apiwarden.core.log.ApiLog;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/**
 * One refresh of this JVM, coordinated with every other JVM that shares the store.
 *
 * <ol>
 *   <li>Read the store. A newer, usable state than the one that failed here (another JVM
 *       refreshed) is adopted: no token request.
 *   <li>Take the lease. Held by another: back off, read again, adopt what it writes, or take
 *       the lease once its holder is gone (dead, or stalled past the lease).
 *   <li>With the lease: read once more, since the holder before may have written just now.
 *   <li>Refresh with the newest refresh token, renewing the lease while the request runs.
 *   <li>Write the new state with compare-and-set before any caller gets the token: a crash
 *       can then never lose a rotated refresh token that a call already relied on.
 *   <li>{@code invalid_grant} is final only after the store was read again: a refresh token
 *       rotated by another JVM is no reason to stop; its newer state is adopted instead.
 * </ol>
 * A store that does not answer in time never stops a refresh: this JVM then refreshes on its
 * own (one warning), and the next refresh meets the store again.
 */
final class StoreRefresh {
    /** First pause before looking again while another JVM holds the lease; doubled up to {@link #MAX_LEASE_POLL}. */
    static final Duration FIRST_LEASE_POLL = Duration.ofMillis(25);
    /** A refresh takes tens of milliseconds to a few seconds: looking more often than this only loads the store. */
    static final Duration MAX_LEASE_POLL = Duration.ofMillis(400);

    private final TokenStore store;
    private final TokenEndpoint endpoint;
    /** The only part that knows what a token request spends; everything else here deals in states. */
    private final Grant grant;

    private final DelayScheduler scheduler;
    private final Executor storeIo;
    private final Clock clock;
    private final Duration leaseTtl;
    /** How long a refresh may wait for other JVMs' leases in all before it refreshes alone. */
    private final Duration maxLeaseWait;
    /** Whether other JVMs share the store; a JVM alone takes no lease and reads nothing. */
    private final boolean shared;

    private final ApiLog log;

    private volatile boolean warnedUnavailable;
    /** A state this JVM refreshed to that the store has not taken yet, or null. */
    private volatile Unwritten unwritten;

    private volatile String lastUsed;
    /** Tries to store a state the store missed, 1, 2 and 4 s after the refresh; the next refresh tries again anyway. */
    static final int UNWRITTEN_RETRIES = 3;

    /**
     * @param storeIo where store operations run (they block for up to the store's time-out)
     * @param leaseTtl how long a lease lasts unless renewed; renewed every third of it
     * @param maxLeaseWait how long to wait in all for a holder that keeps renewing
     */
    StoreRefresh(
            TokenStore store,
            boolean shared,
            TokenEndpoint endpoint,
            Grant grant,
            DelayScheduler scheduler,
            Executor storeIo,
            Clock clock,
            Duration leaseTtl,
            Duration maxLeaseWait,
            ApiLog log) {
        this.log = log;
        this.store = store;
        this.shared = shared;
        this.endpoint = endpoint;
        this.grant = grant;
        this.scheduler = scheduler;
        this.storeIo = storeIo;
        this.clock = clock;
        this.leaseTtl = leaseTtl;
        this.maxLeaseWait = maxLeaseWait;
    }

    /** What a refresh ended with: the state now current, and whether it came from the store rather than a token request. */
    static final class Outcome {
        final TokenState state;
        final boolean adopted;

        Outcome(TokenState state, boolean adopted) {
            this.state = state;
            this.adopted = adopted;
        }
    }

    /**
     * Refreshes, or adopts what another JVM refreshed.
     *
     * @param known the state this JVM holds (generation 0 before the store was ever read)
     * @param failedAccessToken the access token that was refused or ran out, or null
     * @param refusedCredential what the token service refused for good ({@link Grant#credential}), never sent again; or null
     */
    CompletableFuture<Outcome> refresh(
            TokenState known, String failedAccessToken, String refusedCredential, RefreshObserver observer) {
        Run run = new Run(known, failedAccessToken, refusedCredential, observer);
        storeIo.execute(run);
        return run.result;
    }

    /** What the last token request spent ({@link Grant#credential}), for remembering a permanent refusal of it. */
    String lastUsedCredential() {
        return lastUsed;
    }

    /**
     * Whether {@code s} holds an access token worth using instead of refreshing. A token bound to another DPoP key
     * than this JVM's (the fleet's key file changed, and this JVM or the one that stored it has not seen the change
     * yet) is not: this JVM cannot prove it, and must not send it with a proof of its own key.
     */
    boolean usable(TokenState s, String failedAccessToken) {
        return s != null
                && s.accessToken() != null
                && !s.accessToken().equals(failedAccessToken)
                && (s.expiresAt() == null || clock.instant().isBefore(s.expiresAt()))
                && boundToThisJvmsKey(s);
    }

    private boolean boundToThisJvmsKey(TokenState s) {
        if (s.boundKey() == null || endpoint == null) {
            return true;
        }
        try {
            return endpoint.proof().boundToCurrentKey(s.boundKey(), true);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A stored state with its tokens checked as a token endpoint's would be: a store anyone else can
     * write (or a damaged file) must not put a header the HTTP client refuses into every call.
     */
    static TokenState sane(TokenState s) {
        if (s == null) {
            return null;
        }
        boolean accessOk = s.accessToken() == null || TokenText.flaw(s.accessToken()) == null;
        boolean refreshOk = s.refreshToken() == null || TokenText.flaw(s.refreshToken()) == null;
        if (accessOk && refreshOk) {
            return s;
        }
        AgentLog.once(
                AgentLog.Level.WARN,
                "store-unfit-token",
                "the token store holds a token that cannot be sent; it is ignored",
                null);
        return new TokenState(
                s.generation(),
                accessOk ? s.accessToken() : null,
                accessOk ? s.expiresAt() : null,
                accessOk ? s.obtainedAt() : null,
                refreshOk ? s.refreshToken() : null,
                accessOk ? s.boundKey() : null);
    }

    private void warnUnavailable(Exception e) {
        if (!warnedUnavailable) {
            warnedUnavailable = true;
            log.warn(e.getMessage() + "; this JVM refreshes on its own until the store answers again, with the newest"
                    + " tokens kept in memory and used, and written to the store as soon as it takes them");
        }
    }

    /**
     * Writes a state this JVM got while the store was away, once it answers: on top of what is
     * stored, but only if the store still holds the state that this one was refreshed from (then
     * this one is its successor). If another JVM refreshed since, its state wins and this one is
     * dropped: the next refresh adopts the stored one.
     */
    private boolean writeUnwritten() {
        Unwritten u = unwritten;
        if (u == null) {
            return true;
        }
        try {
            TokenState stored = store.read();
            // Client credentials spend nothing, so any stored state may have a successor; a refresh token must match.
            boolean successor = stored == null
                    || stored.refreshToken() == null
                    || !grant.keepsRefreshTokens()
                    || stored.refreshToken().equals(u.base.refreshToken());
            if (successor) {
                long generation = stored == null ? 1 : stored.generation() + 1;
                TokenState s = u.state;
                store.compareAndSet(s.withGeneration(generation));
            }
            unwritten = null;
            warnedUnavailable = false;
            return true;
        } catch (StoreUnavailableException | RuntimeException e) {
            return false;
        }
    }

    /** Tries {@link #writeUnwritten()} again a few times, 1, 2 and 4 s apart, so the fleet learns the new token soon. */
    private void retryUnwritten(int attempt) {
        if (attempt > UNWRITTEN_RETRIES) {
            return;
        }
        scheduler.schedule(
                Duration.ofSeconds(1L << (attempt - 1)),
                () -> storeIo.execute(() -> {
                    if (!writeUnwritten()) {
                        retryUnwritten(attempt + 1);
                    }
                }));
    }

    /** A state this JVM refreshed to that the store did not take, and the state it was refreshed from. */
    private static final class Unwritten {
        final TokenState base;
        final TokenState state;

        Unwritten(TokenState base, TokenState state) {
            this.base = base;
            this.state = state;
        }
    }

    /**
     * Runs a step on {@link #storeIo} when a timer fires. The steps of a refresh are classes, not lambdas: a JVM's first
     * refresh is on its first call's way, and a lambda's first use spins a class there.
     */
    private final class OnStoreThread implements Runnable {
        private final Runnable step;

        OnStoreThread(Runnable step) {
            this.step = step;
        }

        @Override
        public void run() {
            storeIo.execute(step);
        }
    }

    /** One refresh in progress; its steps run one after the other on {@link #storeIo}, the first as itself. */
    private final class Run implements Runnable {
        final CompletableFuture<Outcome> result = new CompletableFuture<>();
        final TokenState known;
        final String failed;
        final String refused;
        final RefreshObserver observer;
        final Instant started = clock.instant();
        Duration poll = FIRST_LEASE_POLL;
        TokenStore.Lease lease;
        volatile DelayScheduler.Scheduled renewal;
        boolean retriedAfterRefusal;
        /** The store's state as last read, for refreshing from it when the store stops answering. */
        TokenState lastRead;

        Run(TokenState known, String failed, String refused, RefreshObserver observer) {
            this.known = known;
            this.failed = failed;
            this.refused = refused;
            this.observer = observer;
        }

        @Override
        public void run() {
            look();
        }

        /** Tells the refresh's span what happened; a failure there never stops the refresh. */
        void event(String name) {
            try {
                observer.event(name);
            } catch (RuntimeException e) {
                AgentLog.once(AgentLog.Level.WARN, "store-telemetry", "a refresh's span could not be updated", e);
            }
        }

        /** Steps 1 and 2: read, adopt or take the lease. Nothing escapes: the result always completes. */
        void look() {
            try {
                if (!shared) {
                    // A JVM alone: its single flight is the lease, and there is nothing to read.
                    grant(known, false);
                    return;
                }
                writeUnwritten();
                TokenState stored = read();
                if (adoptable(stored)) {
                    adopt(stored);
                    return;
                }
                lease = store.tryLease(leaseTtl);
                if (lease == null) {
                    if (Duration.between(started, clock.instant()).compareTo(maxLeaseWait) >= 0) {
                        // Refreshing now would spend the refresh token the holder is spending: fail, and let the next
                        // call look again.
                        result.completeExceptionally(new TokenRefreshException(
                                "another JVM has held the right to refresh in " + store.describe() + " for "
                                        + maxLeaseWait.toMillis() + " ms",
                                false));
                        return;
                    }
                    event("lease_wait");
                    Duration pause = poll;
                    poll = poll.multipliedBy(2).compareTo(MAX_LEASE_POLL) > 0 ? MAX_LEASE_POLL : poll.multipliedBy(2);
                    scheduler.schedule(pause, new OnStoreThread(this));
                    return;
                }
                // Step 3: the holder before may have written just before it let go.
                TokenState now = read();
                if (adoptable(now)) {
                    releaseLease();
                    adopt(now);
                    return;
                }
                grant(newest(now), true);
            } catch (StoreUnavailableException e) {
                alone(e);
            } catch (Throwable e) {
                fail(e);
            }
        }

        TokenState read() throws StoreUnavailableException {
            lastRead = sane(store.read());
            return lastRead;
        }

        /**
         * Whether a stored state is worth taking instead of refreshing. The store is the truth for
         * the fleet, whatever its numbering (a store that lost its data starts again at 1), unless
         * this JVM holds a state the store never took.
         */
        boolean adoptable(TokenState stored) {
            return usable(stored, failed) && (unwritten == null || stored.generation() >= known.generation());
        }

        /** The state to refresh from: the store's, unless this JVM holds a newer one the store never took. */
        TokenState newest(TokenState stored) {
            if (stored == null || grant.credential(stored) == null) {
                return known;
            }
            return unwritten != null && known.generation() > stored.generation() ? known : stored;
        }

        /** Step 4: the token request, with the lease renewed while it runs. */
        void grant(TokenState base, boolean written) {
            String credential = grant.credential(base);
            if (credential != null && credential.equals(refused)) {
                releaseLease();
                result.completeExceptionally(new TokenRefreshException(
                        "the " + grant.type() + " grant was refused for good and no JVM has stored a newer token",
                        true));
                return;
            }
            if (credential == null) {
                releaseLease();
                result.completeExceptionally(new TokenRefreshException(grant.nothingToAskWith(), true));
                return;
            }
            if (lease != null) {
                scheduleRenewal();
            }
            lastUsed = credential;
            CompletableFuture<TokenGrant> request;
            try {
                request = endpoint.refresh(credential);
            } catch (RuntimeException e) {
                request = CompletableFuture.failedFuture(new TokenRefreshException(
                        "the token request failed (" + e.getClass().getSimpleName() + ")", false));
            }
            request.whenComplete(new Granted(base, written));
        }

        /** Hands the token request's outcome to the store's thread, for {@link #granted}. */
        private final class Granted implements BiConsumer<TokenGrant, Throwable>, Runnable {
            private final TokenState base;
            private final boolean written;
            private TokenGrant issued;
            private Throwable failure;

            Granted(TokenState base, boolean written) {
                this.base = base;
                this.written = written;
            }

            @Override
            public void accept(TokenGrant issued, Throwable failure) {
                this.issued = issued;
                this.failure = failure;
                // The executor's hand-over publishes both fields to the store's thread.
                storeIo.execute(this);
            }

            @Override
            public void run() {
                granted(base, written, issued, failure);
            }
        }

        /** Steps 5 and 6. Nothing escapes: the result always completes, and a grant is never thrown away. */
        void granted(TokenState base, boolean written, TokenGrant issued, Throwable failure) {
            cancelRenewal();
            if (failure == null) {
                TokenState next = after(base, issued);
                try {
                    if (written) {
                        next = write(next);
                    } else if (shared) {
                        keepUnwritten(base, next);
                    }
                } catch (StoreUnavailableException e) {
                    warnUnavailable(e);
                    keepUnwritten(base, next);
                } catch (Throwable e) {
                    log.once(
                            AgentLog.Level.ERROR,
                            "store-write",
                            "a refreshed token could not be stored in " + store.describe(),
                            e);
                    keepUnwritten(base, next);
                }
                releaseLease();
                result.complete(new Outcome(next, false));
                return;
            }
            try {
                TokenRefreshException refusedNow = asRefreshException(failure);
                if (refusedNow.permanent() && shared && !retriedAfterRefusal) {
                    // Before giving up for good: did another JVM rotate the refresh token we used?
                    TokenState now = read();
                    if (now != null
                            && now.refreshToken() != null
                            && !now.refreshToken().equals(base.refreshToken())
                            && !spentHere(now)) {
                        retriedAfterRefusal = true;
                        if (usable(now, failed)) {
                            releaseLease();
                            adopt(now);
                        } else {
                            grant(now, lease != null);
                        }
                        return;
                    }
                    if (!grant.keepsRefreshTokens() && usable(now, failed)) {
                        // This JVM's client credentials were refused, another's were not: the fleet's token still
                        // serves.
                        releaseLease();
                        adopt(now);
                        return;
                    }
                }
                releaseLease();
                result.completeExceptionally(refusedNow);
            } catch (Throwable e) {
                releaseLease();
                result.completeExceptionally(asRefreshException(failure));
            }
        }

        /**
         * Keeps {@code next} for the store. When the store missed the refresh before this one too
         * (a read-only folder, a full disk), it still holds the state that one was refreshed from:
         * the chain is kept with that base, so that the store's state is known for the spent one it
         * is, never taken for another JVM's newer one, and its refresh token never sent again.
         */
        void keepUnwritten(TokenState base, TokenState next) {
            Unwritten before = unwritten;
            unwritten = new Unwritten(before != null && before.state.equals(base) ? before.base : base, next);
            retryUnwritten(1);
        }

        /** Whether {@code stored} is the state that this JVM's unwritten refreshes started from: its refresh token is spent. */
        boolean spentHere(TokenState stored) {
            Unwritten u = unwritten;
            return u != null
                    && stored.refreshToken() != null
                    && stored.refreshToken().equals(u.base.refreshToken());
        }

        /**
         * Writes {@code next} with compare-and-set. It fails when the store moved apart from this
         * JVM: another JVM wrote while this one's lease ran out during a pause, or the store lost
         * its data. This grant is the freshest pair, so it goes on top of whatever is stored, and
         * this JVM takes the store's numbering.
         */
        TokenState write(TokenState next) throws StoreUnavailableException {
            if (store.compareAndSet(next)) {
                return next;
            }
            TokenState now = store.read();
            TokenState onTop = next.withGeneration(now == null ? 1 : now.generation() + 1);
            if (!store.compareAndSet(onTop)) {
                throw new StoreUnavailableException(
                        "the token store " + store.describe() + " kept changing while it was written");
            }
            return onTop;
        }

        void adopt(TokenState stored) {
            event("adopted");
            result.complete(new Outcome(stored, true));
        }

        /** The store did not answer: refresh on this JVM's own, from the newest state it has seen. */
        void alone(StoreUnavailableException e) {
            warnUnavailable(e);
            event("store_unavailable");
            releaseLease();
            grant(
                    lastRead != null && grant.credential(lastRead) != null && unwritten == null ? lastRead : known,
                    false);
        }

        void fail(Throwable e) {
            releaseLease();
            log.once(
                    AgentLog.Level.ERROR,
                    "store-refresh",
                    "a token refresh through " + store.describe() + " failed",
                    e);
            result.completeExceptionally(new TokenRefreshException(
                    "the token refresh failed (" + e.getClass().getSimpleName() + ")", false));
        }

        /** Renews the lease every third of its life until the token request ends; a store that misses one is asked again. */
        void scheduleRenewal() {
            renewal = scheduler.schedule(leaseTtl.dividedBy(3), new OnStoreThread(new Renewal()));
        }

        /** One renewal of the lease, on the store's thread; it schedules the next. */
        private final class Renewal implements Runnable {
            @Override
            public void run() {
                TokenStore.Lease l = lease;
                if (l == null || renewal == null) {
                    return;
                }
                try {
                    if (!l.renew()) {
                        return;
                    }
                } catch (StoreUnavailableException | RuntimeException e) {
                    // The lease may well still stand: keep trying while the request runs.
                }
                scheduleRenewal();
            }
        }

        void cancelRenewal() {
            DelayScheduler.Scheduled r = renewal;
            renewal = null;
            if (r != null) {
                r.cancel();
            }
        }

        void releaseLease() {
            TokenStore.Lease l = lease;
            lease = null;
            if (l != null) {
                l.release();
            }
        }
    }

    /** The state a grant makes of {@code base}: its tokens, its life (capped), the refresh token kept unless rotated. */
    private TokenState after(TokenState base, TokenGrant grant) {
        Instant now = clock.instant();
        // Plain code, not Optional.map with a lambda: a JVM's first refresh is often on its first call's way.
        Duration life = grant.expiresIn().orElse(null);
        if (life != null && life.compareTo(TokenManager.MAX_LIFETIME) > 0) {
            life = TokenManager.MAX_LIFETIME;
        }
        return base.next(
                        grant.accessToken(),
                        life == null ? null : now.plus(life),
                        now,
                        this.grant.refreshTokenAfter(base, grant))
                .boundTo(grant.boundKey());
    }

    static TokenRefreshException asRefreshException(Throwable failure) {
        Throwable t =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (t instanceof TokenRefreshException) {
            return (TokenRefreshException) t;
        }
        return new TokenRefreshException(
                "the token request failed (" + t.getClass().getSimpleName() + ")", false);
    }
}
