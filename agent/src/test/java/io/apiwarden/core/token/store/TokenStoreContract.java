package io.apiwarden.core.token.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.apiwarden.testing.Eventually;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link TokenStore} promises, run against each implementation: its test extends this class
 * and opens stores. Two handles stand for two JVMs sharing one OAuth client.
 *
 * <p>Lease tests run on the clock the store's leases use: a real store's runs by itself and the tests
 * poll until enough of it has passed; a store on a fake clock overrides {@link #leaseClockMillis()} and
 * {@link #advanceLeaseClock(Duration)}, and the same tests run without waiting.
 */
public abstract class TokenStoreContract {
    /** Long enough to order events on a busy 2-core machine, short enough to wait out a few times per test. */
    private static final Duration DEFAULT_TTL = Duration.ofMillis(600);
    /** A lease that must not run out during a test. */
    private static final Duration LONG_TTL = Duration.ofMinutes(5);
    /** How long any awaited condition may take before the test fails. */
    private static final Duration PATIENCE = Duration.ofSeconds(15);
    /** Rounds of the compare-and-set race: enough for both threads to win some on a real store. */
    private static final int RACE_ROUNDS = 30;

    private final List<TokenStore> opened = new ArrayList<>();
    /** One JVM's handle on the store. */
    protected TokenStore a;
    /** Another JVM's handle on the same store (or {@link #a} itself, when the store has no second handle). */
    protected TokenStore b;

    /** A new, empty store that no other test sees. */
    protected abstract TokenStore newStore() throws Exception;

    /**
     * Another handle on {@code store}, opened as another JVM would (its own connection, its own file
     * handle). A store that cannot open one returns {@code store}: the race then runs on one handle.
     */
    protected TokenStore anotherHandle(TokenStore store) throws Exception {
        return store;
    }

    /** The time-to-live of the leases that the tests let run out. */
    protected Duration leaseTtl() {
        return DEFAULT_TTL;
    }

    /** Now, in milliseconds, on the clock the store's leases run by. Real stores: the JVM's monotonic clock. */
    protected long leaseClockMillis() {
        return System.nanoTime() / 1_000_000;
    }

    /** Moves the leases' clock on by {@code d}. A fake clock moves; a real one needs nothing, as the tests poll. */
    protected void advanceLeaseClock(Duration d) {}

    @BeforeEach
    void openHandles() throws Exception {
        a = track(newStore());
        b = track(anotherHandle(a));
    }

    @AfterEach
    void closeHandles() {
        opened.forEach(TokenStore::close);
    }

    private TokenStore track(TokenStore s) {
        if (!opened.contains(s)) {
            opened.add(s);
        }
        return s;
    }

    @Test
    void anEmptyStoreReadsAsNothing() throws Exception {
        assertThat(a.read()).isNull();
        assertThat(b.read()).isNull();
    }

    @Test
    void theFirstWriteIsGenerationOneOverNothing() throws Exception {
        TokenState first = new TokenState(1, "access-one", Instant.parse("2030-01-01T00:00:00Z"), null, "refresh-one");

        assertThat(a.compareAndSet(first)).isTrue();

        assertThat(a.read()).isEqualTo(first);
        assertThat(b.read()).isEqualTo(first);
    }

    @Test
    void theDpopKeyATokenIsBoundToIsSharedWithIt() throws Exception {
        TokenState bound = new TokenState(1, "access-one", null, null, "refresh-one").boundTo("jkt-of-key-a");

        assertThat(a.compareAndSet(bound)).isTrue();

        assertThat(b.read().boundKey()).isEqualTo("jkt-of-key-a");
    }

    @Test
    void aWriterThatMissedAnotherWriteIsRefused() throws Exception {
        TokenState first = new TokenState(1, "access-one", null, null, "refresh-one");
        assertThat(a.compareAndSet(first)).isTrue();

        assertThat(b.compareAndSet(new TokenState(1, "access-late", null, null, "refresh-late")))
                .as("a second generation 1")
                .isFalse();
        assertThat(b.compareAndSet(new TokenState(3, "access-ahead", null, null, "refresh-ahead")))
                .as("a generation that skips one")
                .isFalse();
        assertThat(a.read()).isEqualTo(first);

        TokenState second = first.next("access-two", null, null, "refresh-two");
        assertThat(b.compareAndSet(second)).isTrue();
        assertThat(a.read()).isEqualTo(second);
        assertThat(a.compareAndSet(first.next("access-stale", null, null, "refresh-stale")))
                .as("a writer still at generation 1")
                .isFalse();
        assertThat(b.read()).isEqualTo(second);
    }

    @Test
    void twoWritersRacingForEachGenerationExactlyOneWins() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 1; round <= RACE_ROUNDS; round++) {
                TokenState fromA = new TokenState(round, "access-a" + round, null, null, "refresh-a" + round);
                TokenState fromB = new TokenState(round, "access-b" + round, null, null, "refresh-b" + round);
                CyclicBarrier start = new CyclicBarrier(2);
                Future<Boolean> wroteA = threads.submit(race(start, a, fromA));
                Future<Boolean> wroteB = threads.submit(race(start, b, fromB));
                boolean aWon = wroteA.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                boolean bWon = wroteB.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

                assertThat(aWon).as("round %d: exactly one writer wins", round).isNotEqualTo(bWon);
                assertThat(a.read()).as("round %d: the winner's state", round).isEqualTo(aWon ? fromA : fromB);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static Callable<Boolean> race(CyclicBarrier start, TokenStore store, TokenState state) {
        return () -> {
            start.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            return store.compareAndSet(state);
        };
    }

    @Test
    void statesRoundTripExactly() throws Exception {
        // Every printable ASCII character a token may hold, quotes and backslashes included, at JWT length.
        StringBuilder chars = new StringBuilder();
        for (char c = '!'; c <= '~'; c++) {
            chars.append(c);
        }
        String access = "eyJ" + chars.toString().repeat(40);
        String refresh = "rt-" + chars.reverse();
        Instant expires = Instant.parse("2031-02-03T04:05:06.789123456Z");
        Instant obtained = Instant.parse("2031-02-03T03:05:06.001999999Z");

        TokenState full = new TokenState(1, access, expires, obtained, refresh);
        assertThat(a.compareAndSet(full)).isTrue();
        TokenState read = b.read();
        assertThat(read.generation()).isEqualTo(1);
        assertThat(read.accessToken()).isEqualTo(access);
        assertThat(read.refreshToken()).isEqualTo(refresh);
        assertThat(read.expiresAt()).isEqualTo(expires.truncatedTo(ChronoUnit.MILLIS));
        assertThat(read.obtainedAt()).isEqualTo(obtained.truncatedTo(ChronoUnit.MILLIS));

        TokenState refreshOnly = full.next(null, null, null, "refresh-only");
        TokenState accessOnly = refreshOnly.next("access-only", expires, null, null);
        TokenState nothing = accessOnly.next(null, null, null, null);
        for (TokenState s : List.of(refreshOnly, accessOnly, nothing)) {
            assertThat(a.compareAndSet(s)).isTrue();
            TokenState back = b.read();
            assertThat(back).isEqualTo(s);
            assertThat(back.accessToken()).isEqualTo(s.accessToken());
            assertThat(back.refreshToken()).isEqualTo(s.refreshToken());
            assertThat(back.expiresAt())
                    .isEqualTo(s.expiresAt() == null ? null : s.expiresAt().truncatedTo(ChronoUnit.MILLIS));
            assertThat(back.obtainedAt()).isNull();
        }
    }

    @Test
    void aLeaseIsHeldByOneHolderAtATime() throws Exception {
        TokenStore.Lease lease = a.tryLease(LONG_TTL);
        assertThat(lease).isNotNull();

        assertThat(b.tryLease(LONG_TTL)).as("another JVM").isNull();
        assertThat(a.tryLease(LONG_TTL)).as("another caller in the same JVM").isNull();

        lease.release();
        TokenStore.Lease next = b.tryLease(LONG_TTL);
        assertThat(next).as("taken at once after the release").isNotNull();
        next.release();
    }

    @Test
    void aLeaseRunsOutAfterItsTimeToLiveAndAnotherTakesIt() throws Exception {
        Duration ttl = leaseTtl();
        long before = leaseClockMillis();
        TokenStore.Lease first = a.tryLease(ttl);
        assertThat(first).isNotNull();
        TokenStore.Lease early = b.tryLease(ttl);
        assumeTrue(leaseClockMillis() - before < ttl.toMillis(), "the machine stalled for a whole time-to-live");
        assertThat(early).as("taken while the first still held it").isNull();

        advanceLeaseClock(ttl.plusMillis(1));
        TokenStore.Lease second = await(() -> b.tryLease(LONG_TTL));

        assertThat(leaseClockMillis() - before)
                .as("not before the time-to-live")
                .isGreaterThanOrEqualTo(ttl.toMillis());
        second.release();
    }

    @Test
    void renewingKeepsTheLeaseBeyondItsTimeToLive() throws Exception {
        Duration ttl = leaseTtl();
        long step = ttl.toMillis() / 4;
        // Measured before the lease is asked for: Redis (or a file) set its expiry at that time or later.
        long taken = leaseClockMillis();
        TokenStore.Lease lease = a.tryLease(ttl);
        assertThat(lease).isNotNull();
        long lastRenewalStarted = taken;

        while (leaseClockMillis() - taken <= 2 * ttl.toMillis()) {
            advanceLeaseClock(Duration.ofMillis(step));
            long due = lastRenewalStarted + step;
            awaitClock(due);
            long started = leaseClockMillis();
            boolean renewed = lease.renew();
            TokenStore.Lease intruder = b.tryLease(ttl);
            long gap = leaseClockMillis() - lastRenewalStarted;
            // Past a full time-to-live between two renewals the lease may rightly have run out: the machine
            // stalled, and nothing can be concluded.
            assumeTrue(gap < ttl.toMillis(), "the machine stalled for " + gap + " ms between two renewals");
            assertThat(renewed).as("renewed %d ms after the last renewal", gap).isTrue();
            assertThat(intruder).as("taken by another while renewed").isNull();
            lastRenewalStarted = started;
        }

        advanceLeaseClock(ttl.plusMillis(1));
        TokenStore.Lease after = await(() -> b.tryLease(LONG_TTL));
        after.release();
    }

    @Test
    void aHolderWhoseLeaseRanOutAndWasTakenCannotRenewIt() throws Exception {
        TokenStore.Lease first = a.tryLease(leaseTtl());
        advanceLeaseClock(leaseTtl().plusMillis(1));
        TokenStore.Lease second = await(() -> b.tryLease(LONG_TTL));

        assertThat(first.renew()).isFalse();
        assertThat(a.tryLease(LONG_TTL)).as("still the second holder's").isNull();
        second.release();
    }

    @Test
    void aReleaseByAFormerHolderLeavesTheNewHoldersLease() throws Exception {
        TokenStore.Lease first = a.tryLease(leaseTtl());
        advanceLeaseClock(leaseTtl().plusMillis(1));
        TokenStore.Lease second = await(() -> b.tryLease(LONG_TTL));

        first.release();

        assertThat(a.tryLease(LONG_TTL)).as("still the second holder's").isNull();
        second.release();
        TokenStore.Lease third = a.tryLease(LONG_TTL);
        assertThat(third).isNotNull();
        third.release();
    }

    @Test
    void aReleasedLeaseCannotBeRenewed() throws Exception {
        TokenStore.Lease lease = a.tryLease(LONG_TTL);
        lease.release();

        assertThat(lease.renew()).isFalse();
    }

    @Test
    void noDescriptionShowsAToken() throws Exception {
        TokenState state = new TokenState(1, "access-secret-0451", null, null, "refresh-secret-0451");
        assertThat(a.compareAndSet(state)).isTrue();
        TokenStore.Lease lease = a.tryLease(LONG_TTL);

        assertThat(a.describe()).isNotBlank();
        assertThat(List.of(
                        a.describe(),
                        a.toString(),
                        b.toString(),
                        lease.toString(),
                        a.read().toString()))
                .noneMatch(text -> text.contains("secret-0451"));
        lease.release();
    }

    @Test
    void closingTwiceIsHarmless() {
        a.close();
        a.close();
    }

    /** Polls {@code attempt} until it gives a value, failing after {@link #PATIENCE}. */
    private static <T> T await(Callable<T> attempt) {
        T value = Eventually.settled(PATIENCE, () -> call(attempt), v -> v != null);
        assertThat(value).as("a value within %s", PATIENCE).isNotNull();
        return value;
    }

    private static <T> T call(Callable<T> attempt) {
        try {
            return attempt.call();
        } catch (Exception e) {
            throw new AssertionError("the store failed while the test waited for a value", e);
        }
    }

    /** Polls until the leases' clock reaches {@code millis}. */
    private void awaitClock(long millis) {
        Eventually.await("the lease clock to reach " + millis, PATIENCE, () -> leaseClockMillis() >= millis);
    }
}
