package io.apiwarden.core.token.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * The store of a JVM that shares its OAuth client with nobody: the state lives in this object.
 * The protocol runs the same on it as on a shared store, at no cost beyond a lock.
 */
public final class InMemoryTokenStore implements TokenStore {
    private final Clock clock;
    private TokenState state;
    private Object leaseOwner;
    private Instant leaseUntil = Instant.MIN;

    public InMemoryTokenStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized TokenState read() {
        return state;
    }

    @Override
    public synchronized boolean compareAndSet(TokenState next) {
        long stored = state == null ? 0 : state.generation();
        if (stored != next.generation() - 1) {
            return false;
        }
        // Instants to the millisecond, as the stores that share state keep them.
        state = new TokenState(
                next.generation(),
                next.accessToken(),
                millis(next.expiresAt()),
                millis(next.obtainedAt()),
                next.refreshToken(),
                next.boundKey());
        return true;
    }

    @Override
    public synchronized Lease tryLease(Duration ttl) {
        Instant now = clock.instant();
        if (leaseOwner != null && now.isBefore(leaseUntil)) {
            return null;
        }
        Object owner = new Object();
        leaseOwner = owner;
        leaseUntil = now.plus(ttl);
        return new Lease() {
            @Override
            public boolean renew() {
                synchronized (InMemoryTokenStore.this) {
                    if (leaseOwner != owner) {
                        return false;
                    }
                    leaseUntil = clock.instant().plus(ttl);
                    return true;
                }
            }

            @Override
            public void release() {
                synchronized (InMemoryTokenStore.this) {
                    if (leaseOwner == owner) {
                        leaseOwner = null;
                    }
                }
            }
        };
    }

    private static Instant millis(Instant i) {
        return i == null ? null : Instant.ofEpochMilli(i.toEpochMilli());
    }

    @Override
    public String describe() {
        return "memory";
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public String toString() {
        return "InMemoryTokenStore{" + state + "}";
    }
}
