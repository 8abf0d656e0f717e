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

    /** The store shared with other JVMs, or null when nobody shares. */
    private final TokenStore sharedStore;
    /** Made on first use when nobody shares: most JVMs rarely refresh, and need none of the store's classes to start. */
    private TokenStore localStore;

    private final Clock clock;
    final DelayScheduler scheduler;
    final Executor storeIo;
    final boolean shared;
    private final boolean keepsRefreshTokenFile;

    private TokenSharing(
            TokenStore store,
            Clock clock,
            DelayScheduler scheduler,
            Executor storeIo,
            boolean shared,
            boolean keepsRefreshTokenFile) {
        this.sharedStore = store;
        this.clock = clock;
        this.scheduler = scheduler;
        this.storeIo = storeIo;
        this.shared = shared;
        this.keepsRefreshTokenFile = keepsRefreshTokenFile;
    }

    /** Nobody: the state lives in this JVM, and every step runs where it is called, as it always did. */
    public static TokenSharing none(Clock clock) {
        return new TokenSharing(null, clock, new SystemDelayScheduler(), new InPlace(), false, false);
    }

    /**
     * Through {@code store}; its operations run on {@code storeIo}, never on an app's thread or
     * the timer, since they may block for the store's time-out.
     */
    public static TokenSharing through(TokenStore store, DelayScheduler scheduler, Executor storeIo) {
        return new TokenSharing(store, null, scheduler, storeIo, true, store instanceof FileTokenStore);
    }

    /** The store, made in memory on first use when nobody shares. */
    TokenStore store() {
        if (sharedStore != null) {
            return sharedStore;
        }
        synchronized (this) {
            if (localStore == null) {
                localStore = new InMemoryTokenStore(clock);
            }
            return localStore;
        }
    }

    /** Whether the store itself keeps the refresh-token file current (the file store does). */
    boolean keepsRefreshTokenFile() {
        return keepsRefreshTokenFile;
    }

    public String describe() {
        return sharedStore != null ? sharedStore.describe() : "memory";
    }

    @Override
    public String toString() {
        return "TokenSharing{" + describe() + "}";
    }

    /** Runs each step where it is called: a class, not {@code Runnable::run}, which the first call would spin. */
    private static final class InPlace implements Executor {
        @Override
        public void execute(Runnable step) {
            step.run();
        }
    }
}
