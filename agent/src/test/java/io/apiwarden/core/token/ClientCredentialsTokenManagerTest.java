package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.token.store.InMemoryTokenStore;
import io.apiwarden.core.token.store.TokenState;
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
 * The token manager and the store protocol with the client-credentials grant: the same single
 * flight, expiry and sharing as with refresh tokens, with nothing in the state to spend.
 */
@Timeout(10)
class ClientCredentialsTokenManagerTest {
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTokenEndpoint tokenService =
            new FakeTokenEndpoint().clientCredentials().expiresIn(Duration.ofMinutes(5));
    private final FakeTimer scheduler = FakeTimer.onTestTime(clock);
    private final InMemoryTokenStore store = new InMemoryTokenStore(clock);

    private TokenManager alone() {
        return new TokenManager(tokenService, null, null, null, clock);
    }

    private TokenManager sharing(TokenEndpoint endpoint) {
        return new TokenManager(
                endpoint,
                null,
                null,
                null,
                clock,
                () -> RefreshObserver.NOOP,
                TokenSharing.through(store, scheduler, Runnable::run));
    }

    private static String header(CompletableFuture<AccessToken> f) {
        return f.join().authorizationHeader();
    }

    @Test
    void withNoTokenAtAllTheFirstCallsShareOneTokenRequest() {
        TokenManager m = new TokenManager(tokenService.holding(), null, null, null, clock);
        List<CompletableFuture<AccessToken>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(m.tokenForRequest());
        }
        tokenService.release();

        assertThat(calls).allSatisfy(c -> assertThat(header(c)).isEqualTo("Bearer access-1"));
        assertThat(tokenService.requests()).isEqualTo(1);
        assertThat(m.canRefresh()).isTrue();
    }

    @Test
    void oneTokenRequestPerExpiryAndNoRefreshTokenIsEverHeld() {
        TokenManager m = alone();
        for (int expiry = 1; expiry <= 5; expiry++) {
            assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-" + expiry);
            assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-" + expiry);
            clock.advance(Duration.ofMinutes(5));
        }

        assertThat(tokenService.requests()).isEqualTo(5);
        assertThat(tokenService.refreshTokensSeen()).containsOnly(Grant.CLIENT_CREDENTIALS_KEY);
    }

    @Test
    void aRefusedTokenIsReplacedOnceForEveryCallerThatHadIt() {
        TokenManager m = alone();
        AccessToken first = m.tokenForRequest().join();
        List<CompletableFuture<AccessToken>> after = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            after.add(m.tokenAfterRejection(first));
        }

        assertThat(after).allSatisfy(c -> assertThat(header(c)).isEqualTo("Bearer access-2"));
        assertThat(tokenService.requests()).isEqualTo(2);
    }

    @Test
    void refusedCredentialsAreFinalAndCallsGoOutWithWhatThereIs() {
        tokenService.failingWith(new TokenRefreshException(
                "the token endpoint refused the client_credentials grant: invalid_client", true));
        TokenManager m = alone();

        assertThat(m.tokenForRequest().join())
                .as("no token: the call goes out as without the agent")
                .isNull();
        assertThat(m.canRefresh()).isFalse();
        clock.advance(Duration.ofHours(1));
        assertThat(m.tokenForRequest().join()).isNull();
        assertThat(m.tokenAfterRejection(null)).isCompletedExceptionally();
        assertThat(tokenService.refreshTokensSeen())
                .as("asked once, never again")
                .hasSize(1);
        assertThat(m.lastFailure()).contains("invalid_client");
    }

    @Test
    void threeJvmsSharingAStoreMakeOneTokenRequestPerExpiryAndStoreNoRefreshToken() {
        List<TokenManager> fleet = List.of(sharing(tokenService), sharing(tokenService), sharing(tokenService));
        for (int expiry = 1; expiry <= 10; expiry++) {
            for (TokenManager m : fleet) {
                for (int call = 0; call < 5; call++) {
                    assertThat(header(m.tokenForRequest())).isEqualTo("Bearer access-" + expiry);
                }
            }
            clock.advance(Duration.ofMinutes(5));
        }

        assertThat(tokenService.requests()).as("one per expiry for the fleet").isEqualTo(10);
        TokenState stored = store.read();
        assertThat(stored.generation()).isEqualTo(10);
        assertThat(stored.refreshToken()).isNull();
    }

    @Test
    void aTokenTheApiRefusedIsReplacedOnceForTheFleet() {
        List<TokenManager> fleet = List.of(sharing(tokenService), sharing(tokenService), sharing(tokenService));
        List<AccessToken> refused = new ArrayList<>();
        for (TokenManager m : fleet) {
            refused.add(m.tokenForRequest().join());
        }
        List<CompletableFuture<AccessToken>> calls = new ArrayList<>();
        for (int i = 0; i < fleet.size(); i++) {
            for (int call = 0; call < 20; call++) {
                calls.add(fleet.get(i).tokenAfterRejection(refused.get(i)));
            }
        }

        assertThat(calls).allSatisfy(c -> assertThat(header(c)).isEqualTo("Bearer access-2"));
        assertThat(tokenService.requests()).isEqualTo(2);
    }

    @Test
    void aJvmWhoseCredentialsAreRefusedStillTakesTheTokenAnotherJvmStored() {
        FakeTokenEndpoint wrongSecret = new FakeTokenEndpoint()
                .clientCredentials()
                .failingWith(new TokenRefreshException("invalid_client", true));
        TokenManager misconfigured = sharing(wrongSecret);
        assertThat(misconfigured.tokenForRequest().join()).isNull();

        TokenManager healthy = sharing(tokenService);
        assertThat(header(healthy.tokenForRequest())).isEqualTo("Bearer access-1");
        clock.advance(TokenManager.FAILURE_COOL_DOWN);

        assertThat(header(misconfigured.tokenForRequest())).isEqualTo("Bearer access-1");
        assertThat(wrongSecret.refreshTokensSeen())
                .as("its own credentials are not tried again")
                .hasSize(1);
        assertThat(tokenService.requests()).isEqualTo(1);
    }
}
