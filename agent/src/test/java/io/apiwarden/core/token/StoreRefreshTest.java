package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.token.store.InMemoryTokenStore;
import io.apiwarden.core.token.store.StoreUnavailableException;
import io.apiwarden.core.token.store.TokenState;
import io.apiwarden.core.token.store.TokenStore;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.FakeTokenEndpoint;
import io.apiwarden.testing.MutableClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The refresh protocol between JVMs that share a store, with every JVM a {@link TokenManager}
 * in this one and the store, clock and scheduler fakes: nothing waits for real.
 */
@Timeout(10)
class StoreRefreshTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokenService =
            new FakeTokenEndpoint().strictRotation("refresh-0").expiresIn(Duration.ofMinutes(5));
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final SwitchableStore store = new SwitchableStore(new InMemoryTokenStore(clock));

    /** A JVM started with the configured tokens of a deployment. */
    private TokenManager jvm(String accessToken, String refreshToken) {
        return new TokenManager(
                tokenService,
                accessToken,
                refreshToken,
                null,
                clock,
                () -> io.apiwarden.core.telemetry.RefreshObserver.NOOP,
                TokenSharing.through(store, scheduler, Runnable::run));
    }

    private static String header(CompletableFuture<AccessToken> f) {
        return f.join().authorizationHeader();
    }

    @Test
    void threeJvmsWithFiftyRefusedCallsEachMakeOneTokenRequest() {
        List<TokenManager> fleet =
                List.of(jvm("access-0", "refresh-0"), jvm("access-0", "refresh-0"), jvm("access-0", "refresh-0"));
        List<AccessToken> refused = new ArrayList<>();
        for (TokenManager m : fleet) {
            refused.add(m.tokenForRequest().join());
        }
        List<CompletableFuture<AccessToken>> calls = new ArrayList<>();
        for (int jvm = 0; jvm < fleet.size(); jvm++) {
            for (int i = 0; i < 50; i++) {
                calls.add(fleet.get(jvm).tokenAfterRejection(refused.get(jvm)));
            }
        }

        assertThat(calls).allSatisfy(c -> assertThat(header(c)).isEqualTo("Bearer access-1"));
        assertThat(tokenService.requests()).isEqualTo(1);
        assertThat(tokenService.invalidGrants()).isZero();
    }

    @Test
    void twentyExpiriesInARowAcrossTheFleetRefuseNoGrant() {
        List<TokenManager> fleet = List.of(jvm(null, "refresh-0"), jvm(null, "refresh-0"), jvm(null, "refresh-0"));
        for (int expiry = 1; expiry <= 20; expiry++) {
            for (TokenManager m : fleet) {
                assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-" + expiry);
            }
            clock.advance(Duration.ofMinutes(5));
        }

        assertThat(tokenService.requests()).as("one per expiry").isEqualTo(20);
        assertThat(tokenService.invalidGrants()).isZero();
    }

    @Test
    void aJvmStartedLateWithTheOriginalSecretAdoptsTheCurrentStateOnItsFirstCall() {
        TokenManager first = jvm(null, "refresh-0");
        first.tokenForRequest().join();
        clock.advance(Duration.ofMinutes(5));
        first.tokenForRequest().join();

        TokenManager late = jvm(null, "refresh-0");

        assertThat(header(late.tokenForRequest())).isEqualTo("Bearer access-2");
        assertThat(tokenService.requests()).isEqualTo(2);
        assertThat(tokenService.invalidGrants()).isZero();
    }

    @Test
    void aRefusedGrantIsNotFinalWhenAnotherJvmRotatedTheRefreshTokenMeanwhile() {
        // Another JVM, whose lease had run out, refreshes and writes just before this one's token request.
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        TokenEndpoint interleaved = refreshToken -> {
            if (first.getAndSet(false)) {
                tokenService.refresh("refresh-0").join();
                try {
                    store.inner.compareAndSet(new TokenState(1, null, null, null, "refresh-1"));
                } catch (RuntimeException e) {
                    throw new AssertionError(e);
                }
            }
            return tokenService.refresh(refreshToken);
        };
        TokenManager stale = new TokenManager(
                interleaved,
                "access-0",
                "refresh-0",
                null,
                clock,
                () -> io.apiwarden.core.telemetry.RefreshObserver.NOOP,
                TokenSharing.through(store, scheduler, Runnable::run));
        AccessToken refused = stale.tokenForRequest().join();

        AccessToken fresh = stale.tokenAfterRejection(refused).join();

        assertThat(fresh.authorizationHeader()).isEqualTo("Bearer access-2");
        assertThat(tokenService.invalidGrants())
                .as("refused once, then the stored token worked")
                .isEqualTo(1);
        assertThat(stale.canRefresh()).isTrue();
    }

    @Test
    void aLeaseHolderThatNeverReturnsDelaysTheOthersByTheLeaseAtMost() throws Exception {
        TokenStore.Lease abandoned = store.tryLease(TokenSharing.LEASE_TTL);
        assertThat(abandoned).isNotNull();
        TokenManager m = jvm(null, "refresh-0");

        java.time.Instant start = clock.instant();
        CompletableFuture<AccessToken> waiting = m.tokenForRequest();
        while (!waiting.isDone()) {
            assertThat(scheduler.waiting())
                    .as("waiting by polls on the timer, never on a thread")
                    .isEqualTo(1);
            scheduler.runDue();
        }

        assertThat(header(waiting)).isEqualTo("Bearer access-1");
        Duration waited = Duration.between(start, clock.instant());
        assertThat(waited)
                .isGreaterThanOrEqualTo(TokenSharing.LEASE_TTL)
                .isLessThanOrEqualTo(TokenSharing.LEASE_TTL.plus(StoreRefresh.MAX_LEASE_POLL));
    }

    @Test
    void aStoreThatDoesNotAnswerLeavesEachJvmRefreshingAloneAndTheNewestStateWinsWhenItIsBack() {
        TokenManager m = jvm("access-0", "refresh-0");
        AccessToken refused = m.tokenForRequest().join();
        store.down = true;

        assertThat(header(m.tokenAfterRejection(refused))).isEqualTo("Bearer access-1");

        store.down = false;
        clock.advance(Duration.ofMinutes(5));
        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-2");
        assertThat(store.inner.read().accessToken())
                .as("written once the store answered")
                .isEqualTo("access-2");
        assertThat(tokenService.invalidGrants()).isZero();
    }

    @Test
    void theRotatedRefreshTokenIsStoredBeforeAnyCallerHasTheNewAccessToken() {
        List<String> storedWhenHandedOut = new ArrayList<>();
        TokenManager m = jvm(null, "refresh-0");

        m.tokenForRequest()
                .thenAccept(t -> storedWhenHandedOut.add(store.inner.read().refreshToken()))
                .join();

        assertThat(storedWhenHandedOut).containsExactly("refresh-1");
    }

    @Test
    void aStoreThatLostItsDataIsStillTheFleetsTruthAndNoRefreshTokenIsSpentTwice() {
        TokenManager a = jvm(null, "refresh-0");
        TokenManager b = jvm(null, "refresh-0");
        for (int expiry = 0; expiry < 3; expiry++) {
            a.tokenForRequest().join();
            b.tokenForRequest().join();
            clock.advance(Duration.ofMinutes(5));
        }
        // Redis restarted without persistence: the fleet holds generation 3, the store nothing.
        store.inner = new InMemoryTokenStore(clock);

        assertThat(header(a.tokenForRequest())).isEqualTo("Bearer access-4");
        assertThat(header(b.tokenForRequest()))
                .as("adopted, though the store numbers from 1 again")
                .isEqualTo("Bearer access-4");
        assertThat(tokenService.invalidGrants()).isZero();
        assertThat(tokenService.requests()).isEqualTo(4);
    }

    @Test
    void aStoreThatCannotBeWrittenNeverTakesBackASpentRefreshTokenOverTheNewestInMemory() {
        // The refresh-token file in a read-only folder (a mounted secret), or on a full disk: read, never written.
        store.inner.compareAndSet(new TokenState(1, null, null, null, "refresh-0"));
        store.readOnly = true;
        TokenManager m = jvm(null, "refresh-0");

        for (int expiry = 1; expiry <= 4; expiry++) {
            assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-" + expiry);
            clock.advance(Duration.ofMinutes(5));
        }

        assertThat(tokenService.refreshTokensSeen())
                .containsExactly("refresh-0", "refresh-1", "refresh-2", "refresh-3");
        assertThat(tokenService.invalidGrants()).isZero();
        assertThat(store.inner.read().refreshToken())
                .as("the store never took a write")
                .isEqualTo("refresh-0");

        store.readOnly = false;
        assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-5");
        assertThat(store.inner.read().refreshToken())
                .as("written once it can be")
                .isEqualTo("refresh-5");
        assertThat(tokenService.invalidGrants()).isZero();
    }

    /** A store whose answers a test can cut off, all of them or its writes. */
    static final class SwitchableStore implements TokenStore {
        volatile InMemoryTokenStore inner;
        volatile boolean down;
        /** Reads answer, writes and leases fail: what the file store does in a read-only folder. */
        volatile boolean readOnly;

        SwitchableStore(InMemoryTokenStore inner) {
            this.inner = inner;
        }

        private void check() throws StoreUnavailableException {
            if (down) {
                throw new StoreUnavailableException("the token store test did not answer");
            }
        }

        @Override
        public TokenState read() throws StoreUnavailableException {
            check();
            return inner.read();
        }

        private void checkWritable() throws StoreUnavailableException {
            check();
            if (readOnly) {
                throw new StoreUnavailableException("the token store test could not be written");
            }
        }

        @Override
        public boolean compareAndSet(TokenState next) throws StoreUnavailableException {
            checkWritable();
            return inner.compareAndSet(next);
        }

        @Override
        public Lease tryLease(Duration ttl) throws StoreUnavailableException {
            checkWritable();
            return inner.tryLease(ttl);
        }

        @Override
        public String describe() {
            return "test";
        }

        @Override
        public void close() {}
    }
}
