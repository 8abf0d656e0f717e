package io.apiwarden.core.token.store;

import io.apiwarden.testing.MutableClock;
import java.time.Duration;

/** The store contract on the store of a JVM alone. */
class InMemoryTokenStoreTest extends TokenStoreContract {
    private final MutableClock clock = MutableClock.atEpochDay();

    @Override
    protected TokenStore newStore() {
        return new InMemoryTokenStore(clock);
    }

    @Override
    protected long leaseClockMillis() {
        return clock.millis();
    }

    @Override
    protected void advanceLeaseClock(Duration d) {
        clock.advance(d);
    }
}
