package io.apiwarden.core.dpop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.core.token.HttpTokenEndpoint;
import io.apiwarden.core.token.TokenGrant;
import io.apiwarden.core.token.TokenRefreshException;
import io.apiwarden.testing.DpopServer;
import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Token requests with DPoP: a proof on each, one resend for a nonce, and a token that must be of type DPoP. */
class DpopTokenEndpointTest {
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    private final MutableClock clock = new MutableClock(Instant.now());
    private final DpopServer dpop = new DpopServer(clock::instant);
    private final MockWebServer server = new MockWebServer();
    private HttpTokenEndpoint endpoint;

    @BeforeEach
    void start() throws Exception {
        server.setDispatcher(dpop);
        server.start(0);
        endpoint = new HttpTokenEndpoint(
                URI.create(server.url(DpopServer.TOKEN_PATH).toString()),
                null,
                null,
                Duration.ofSeconds(10),
                () -> CLIENT,
                FakeTimer.atOnce(clock),
                clock);
        endpoint.proveWith(Dpop.create(DpopKey.generate(null), clock));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private TokenGrant refresh() throws Exception {
        return endpoint.refresh("refresh-0").get(10, TimeUnit.SECONDS);
    }

    @Test
    void theTokenRequestCarriesAProofAndGetsADpopToken() throws Exception {
        assertThat(refresh().accessToken()).isEqualTo("dpop-1");

        assertThat(dpop.tokenRequests()).isEqualTo(1);
        assertThat(dpop.refusals()).isEmpty();
    }

    @Test
    void aNonceDemandedByTheTokenEndpointIsSentWithOneResendAndKeptForTheNextRequest() throws Exception {
        dpop.demandTokenNonce("tn-1");

        assertThat(refresh().accessToken()).isEqualTo("dpop-1");
        assertThat(refresh().accessToken()).isEqualTo("dpop-2");

        assertThat(dpop.tokenNonceDemands()).isEqualTo(1);
        assertThat(dpop.tokenRequests()).isEqualTo(3);
        assertThat(dpop.replays()).isZero();
    }

    @Test
    void aNonceDemandedAgainAfterTheResendGoesToTheCallerWithoutAThirdRequest() throws Exception {
        dpop.demandTokenNonce("tn-1").giveNoncesNeverTaken();

        assertThatThrownBy(this::refresh)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TokenRefreshException.class)
                .hasMessageContaining("use_dpop_nonce");
        assertThat(dpop.tokenRequests()).as("the request and its one resend").isEqualTo(2);
    }

    @Test
    void aBearerTokenFromTheEndpointIsOneClearErrorSayingTheServerDidNotBindIt() {
        dpop.issueTokenType("Bearer");

        assertThatThrownBy(this::refresh)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(TokenRefreshException.class)
                .hasMessageContaining("of type 'Bearer', not DPoP")
                .hasMessageContaining("require DPoP-bound tokens")
                .hasMessageNotContaining("dpop-1");
    }
}
