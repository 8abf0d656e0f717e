package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class HttpTokenEndpointTest {
    private final MockWebServer server = new MockWebServer();
    private final MutableClock clock = MutableClock.atEpochDay();
    private final FakeTimer scheduler = FakeTimer.atOnce(clock);
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        server.start(0);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpTokenEndpoint endpoint(String clientId, String secret) {
        return new HttpTokenEndpoint(
                server.url("/token").uri(), clientId, secret, Duration.ofSeconds(5), () -> client, scheduler, clock);
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    @Test
    void postsTheRefreshTokenGrantAsAFormAndReadsTheGrant() throws Exception {
        server.enqueue(
                json(
                        200,
                        "{\"access_token\":\"a-1\",\"token_type\":\"bearer\",\"expires_in\":\"3600\",\"refresh_token\":\"r-2\",\"scope\":[\"x\"]}"));

        TokenGrant grant = endpoint(null, null).refresh("r+1/=").join();

        assertThat(grant.accessToken()).isEqualTo("a-1");
        assertThat(grant.expiresIn()).contains(Duration.ofHours(1));
        assertThat(grant.refreshToken()).contains("r-2");
        RecordedRequest r = server.takeRequest();
        assertThat(r.getMethod()).isEqualTo("POST");
        assertThat(r.getHeaders().get("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(r.getBody().utf8()).isEqualTo("grant_type=refresh_token&refresh_token=r%2B1%2F%3D");
        assertThat(r.getHeaders().get("Authorization")).isNull();
    }

    @Test
    void clientCredentialsGoInHttpBasicFormEncodedFirst() throws Exception {
        server.enqueue(json(200, "{\"access_token\":\"a\"}"));

        endpoint("my client", "p:w").refresh("r").join();

        // base64("my+client:p%3Aw")
        assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Basic bXkrY2xpZW50OnAlM0F3");
    }

    @Test
    void invalidGrantIsPermanentAndNamesTheFix() {
        server.enqueue(json(400, "{\"error\":\"invalid_grant\",\"error_description\":\"revoked\"}"));

        assertThatThrownBy(() -> endpoint(null, null).refresh("r-secret").join())
                .isInstanceOf(CompletionException.class)
                .cause()
                .isInstanceOfSatisfying(TokenRefreshException.class, e -> {
                    assertThat(e.permanent()).isTrue();
                    assertThat(e.getMessage())
                            .contains("invalid_grant", "new refresh token")
                            .doesNotContain("r-secret");
                });
    }

    @Test
    void serverErrorsAreRetriedTwiceWithAShortBackOff() {
        server.enqueue(json(503, "{}"));
        server.enqueue(new MockResponse.Builder()
                .code(429)
                .addHeader("Retry-After", "3")
                .build());
        server.enqueue(json(200, "{\"access_token\":\"a\"}"));

        assertThat(endpoint(null, null).refresh("r").join().accessToken()).isEqualTo("a");
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(3));
    }

    @Test
    void retriesAreBoundedThenTheFailureIsTransient() {
        for (int i = 0; i < 3; i++) {
            server.enqueue(json(500, "{}"));
        }

        assertThatThrownBy(() -> endpoint(null, null).refresh("r").join())
                .cause()
                .isInstanceOfSatisfying(TokenRefreshException.class, e -> assertThat(e.permanent())
                        .isFalse());
        assertThat(server.getRequestCount()).isEqualTo(HttpTokenEndpoint.MAX_ATTEMPTS);
    }

    @Test
    void aBodyThatIsNotATokenResponseIsReportedWithTheLikelyCause() {
        server.enqueue(
                new MockResponse.Builder().code(200).body("<html>login</html>").build());

        assertThatThrownBy(() -> endpoint(null, null).refresh("r").join())
                .cause()
                .hasMessageContaining("not a JSON token response")
                .hasMessageContaining("apiwarden.token-url");
    }

    @Test
    void aTokenThatCannotGoIntoAHeaderIsRefusedWithoutQuotingIt() {
        server.enqueue(json(200, "{\"access_token\":\"abc\\u0007secret-part\"}"));

        assertThatThrownBy(() -> endpoint(null, null).refresh("r").join())
                .cause()
                .hasMessageContaining("control characters")
                .hasMessageNotContaining("secret-part");
    }

    @Test
    void aNonBearerTokenIsRefused() {
        server.enqueue(json(200, "{\"access_token\":\"a\",\"token_type\":\"mac\"}"));

        assertThatThrownBy(() -> endpoint(null, null).refresh("r").join())
                .cause()
                .hasMessageContaining("not Bearer");
    }

    @Test
    void anUnreachableEndpointFailsAfterItsRetries() {
        server.close();

        assertThatThrownBy(() -> endpoint(null, null).refresh("r").join())
                .cause()
                .hasMessageContaining("did not answer");
        assertThat(scheduler.delays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }
}
