package io.apiwarden.demo;

import static io.apiwarden.demo.ApiTestClient.jsonString;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class UserEndpointTest {
    private static final Duration LIFETIME = Duration.ofSeconds(30);

    private final MutableClock clock = new MutableClock();
    private SimulatedApi api;
    private ApiTestClient client;

    @BeforeEach
    void start() throws IOException {
        api = new SimulatedApi(
                        SimulatedApi.Settings.builder().tokenLifetime(LIFETIME).build(), clock)
                .start();
        client = new ApiTestClient(api);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void validBearerTokenGetsTheUser() {
        HttpResponse<String> response = client.getUser(client.newAccessToken());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(jsonString(response.body(), "login")).isEqualTo("demo-user");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    }

    @Test
    void bearerSchemeIsCaseInsensitive() {
        assertThat(client.get("/user", "bearer " + client.newAccessToken()).statusCode())
                .isEqualTo(200);
    }

    @Test
    void missingAuthorizationIsAnInvalidToken() {
        assertInvalidToken(client.get("/user", null), "malformed");
    }

    @Test
    void otherSchemeIsAnInvalidToken() {
        assertInvalidToken(client.get("/user", "Basic dXNlcjpwYXNz"), "malformed");
    }

    @Test
    void malformedTokenIsAnInvalidToken() {
        assertInvalidToken(client.getUser("not-a-token"), "malformed");
    }

    @Test
    void tokenExpiresWhenItsLifetimeHasPassed() {
        String token = client.newAccessToken();
        clock.advance(LIFETIME.minusMillis(1));
        assertThat(client.getUser(token).statusCode()).isEqualTo(200);

        clock.advance(Duration.ofMillis(1));

        assertInvalidToken(client.getUser(token), "expired");
    }

    @Test
    void expireAllAccessTokensNowEndsEveryToken() {
        String first = client.newAccessToken();
        String second = client.newAccessToken();

        api.expireAllAccessTokensNow();

        assertInvalidToken(client.getUser(first), "expired");
        assertInvalidToken(client.getUser(second), "expired");
        assertThat(client.getUser(client.newAccessToken()).statusCode()).isEqualTo(200);
    }

    @Test
    void wellFormedButUnknownTokenIsAnsweredAsExpired() {
        assertInvalidToken(client.getUser("at_" + "A".repeat(43)), "expired");
    }

    @Test
    void validTokenWithoutAdminRightsIsForbiddenOnAdmin() {
        HttpResponse<String> response = client.get("/admin", "Bearer " + client.newAccessToken());

        assertThat(response.statusCode()).isEqualTo(403);
        assertThat(jsonString(response.body(), "message")).isEqualTo("OAuth invalid token");
        assertThat(jsonString(response.body(), "reason")).isEqualTo("insufficient permissions");
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(value -> assertThat(value).contains("error=\"insufficient_scope\""));
        assertThat(api.counters().forbidden()).isEqualTo(1);
    }

    @Test
    void adminWithExpiredTokenIsUnauthorizedFirst() {
        String token = client.newAccessToken();
        clock.advance(LIFETIME);

        assertInvalidToken(client.get("/admin", "Bearer " + token), "expired");
    }

    @Test
    void unknownPathsAndMethodsAreAnsweredPlainly() {
        assertThat(client.get("/nothing", null).statusCode()).isEqualTo(404);
        assertThat(client.get("", null).statusCode())
                .as("the base only answers HEAD")
                .isEqualTo(405);
    }

    @Test
    void countsUnauthorizedAnswersAndApiRequests() {
        client.getUser("bad");
        client.get("/user", null);
        client.getUser(client.newAccessToken());

        assertThat(api.counters().unauthorized()).isEqualTo(2);
        assertThat(api.counters().apiRequests()).isEqualTo(3);
    }

    private void assertInvalidToken(HttpResponse<String> response, String reason) {
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(
                        value -> assertThat(value).startsWith("Bearer ").contains("error=\"invalid_token\""));
        assertThat(jsonString(response.body(), "message")).isEqualTo("OAuth invalid token");
        assertThat(jsonString(response.body(), "reason")).isEqualTo(reason);
    }
}
