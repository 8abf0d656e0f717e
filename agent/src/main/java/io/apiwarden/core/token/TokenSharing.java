package io.apiwarden.core.token;

import io.apiwarden.core.time.DelayScheduler;
import io.apiwarden.core.time.SystemDelayScheduler;
import io.apiwarden.core.token.store.FileTokenStore;
import io.apiwarden.core.token.store.InMemoryTokenStore;
import io.apiwarden.core.token.store.TokenStore;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;

/** With whom this JVM shares its token state: nobody (a store in memory), the JVMs of one host (a file), or a fleet (Redis). */
public final class TokenSharing {
    /**
     * How long the right to refresh lasts unless renewed (every third of it, while the token
     * request runs): a holder killed on another host blocks the others this long at most.
     */
    public static final Duration LEASE_TTL = Duration.ofSeconds(5);
    /**
     * How long a refresh waits in all for another JVM that keeps renewing its lease before it
     * refreshes alone: longer than the token endpoint's three tries of a slow refresh.
     */
    public static final Duration MAX_LEASE_WAIT = Duration.ofSeconds(40);

    final TokenStore store;
    final DelayScheduler scheduler;
    final Executor storeIo;
    final boolean shared;

    private TokenSharing(TokenStore store, DelayScheduler scheduler, Executor storeIo, boolean shared) {
        this.store = store;
        this.scheduler = scheduler;
        this.storeIo = storeIo;
        this.shared = shared;
    }

    /** Nobody: the state lives in this JVM, and every step runs where it is called, as it always did. */
    public static TokenSharing none(Clock clock) {
        return new TokenSharing(new InMemoryTokenStore(clock), new SystemDelayScheduler(), Runnable::run, false);
    }

    /**
     * Through {@code store}; its operations run on {@code storeIo}, never on an app's thread or
     * the timer, since they may block for the store's time-out.
     */
    public static TokenSharing through(TokenStore store, DelayScheduler scheduler, Executor storeIo) {
        return new TokenSharing(store, scheduler, storeIo, true);
    }

    /** Whether the store itself keeps the refresh-token file current (the file store does). */
    boolean keepsRefreshTokenFile() {
        return store instanceof FileTokenStore;
    }

    public String describe() {
        return store.describe();
    }

    @Override
    public String toString() {
        return "TokenSharing{" + store.describe() + "}";
    }
}
