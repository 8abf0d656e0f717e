package io.apiwarden.demo;

import static io.apiwarden.demo.ApiTestClient.jsonString;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TokenEndpointTest {
    private final MutableClock clock = new MutableClock();
    private SimulatedApi api;
    private ApiTestClient client;

    @BeforeEach
    void start() throws IOException {
        api = new SimulatedApi(
                        SimulatedApi.Settings.builder()
                                .tokenLifetime(Duration.ofSeconds(7))
                                .build(),
                        clock)
                .start();
        client = new ApiTestClient(api);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void refreshGrantIssuesBearerTokenWithLifetimeAndRotatedRefreshToken() {
        String firstRefreshToken = api.currentRefreshToken();

        HttpResponse<String> response = client.requestToken(firstRefreshToken);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(response.body()).contains("\"token_type\":\"Bearer\"", "\"expires_in\":7");
        assertThat(jsonString(response.body(), "access_token"))
                .startsWith("at_")
                .hasSize(46);
        String rotated = jsonString(response.body(), "refresh_token");
        assertThat(rotated).isNotEqualTo(firstRefreshToken).isEqualTo(api.currentRefreshToken());
    }

    @Test
    void eachRefreshIssuesADifferentAccessToken() {
        String first = client.newAccessToken();
        String second = client.newAccessToken();

        assertThat(second).isNotEqualTo(first);
        assertThat(client.getUser(first).statusCode())
                .as("older tokens stay valid until they expire")
                .isEqualTo(200);
        assertThat(client.getUser(second).statusCode()).isEqualTo(200);
    }

    @Test
    void rotatedOutRefreshTokenGetsInvalidGrant() {
        String old = api.currentRefreshToken();
        assertThat(client.requestToken(old).statusCode()).isEqualTo(200);

        HttpResponse<String> reuse = client.requestToken(old);

        assertThat(reuse.statusCode()).isEqualTo(400);
        assertThat(jsonString(reuse.body(), "error")).isEqualTo("invalid_grant");
        assertThat(jsonString(reuse.body(), "error_description")).contains("rotates");
        assertThat(client.requestToken(api.currentRefreshToken()).statusCode())
                .as("the failed attempt does not burn the current token")
                .isEqualTo(200);
    }

    @Test
    void revokedRefreshTokenGetsInvalidGrantAndANewOneWorks() {
        String revoked = api.currentRefreshToken();

        api.revokeRefreshTokens();

        assertThat(jsonString(client.requestToken(revoked).body(), "error")).isEqualTo("invalid_grant");
        assertThat(api.currentRefreshToken()).isNotEqualTo(revoked);
        assertThat(client.requestToken(api.currentRefreshToken()).statusCode()).isEqualTo(200);
    }

    @Test
    void otherGrantTypeIsUnsupported() {
        HttpResponse<String> response = client.postToken(
                ApiTestClient.FORM, "grant_type=client_credentials&refresh_token=" + api.currentRefreshToken());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(jsonString(response.body(), "error")).isEqualTo("unsupported_grant_type");
    }

    @Test
    void missingParametersAndWrongContentTypeAreInvalidRequests() {
        assertThat(client.postToken(ApiTestClient.FORM, "refresh_token=x").body())
                .contains("\"invalid_request\"");
        assertThat(client.postToken(ApiTestClient.FORM, "grant_type=refresh_token")
                        .body())
                .contains("\"invalid_request\"");
        HttpResponse<String> json = client.postToken(
                "application/json",
                "{\"grant_type\":\"refresh_token\",\"refresh_token\":\"" + api.currentRefreshToken() + "\"}");
        assertThat(json.statusCode()).isEqualTo(400);
        assertThat(jsonString(json.body(), "error_description")).contains("application/x-www-form-urlencoded");
    }

    @Test
    void getOnTokenEndpointIsNotAllowed() {
        HttpResponse<String> response =
                client.send(HttpRequest.newBuilder(api.tokenUrl()).GET());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("POST");
    }

    @Test
    void countsEveryTokenRequestAndEachIssuedToken() {
        client.requestToken(api.currentRefreshToken());
        client.requestToken("rt_unknown");
        client.postToken(ApiTestClient.FORM, "grant_type=password");

        assertThat(api.counters().tokenRequests()).isEqualTo(3);
        assertThat(api.counters().tokensIssued()).isEqualTo(1);
    }

    @Test
    void tokenEndpointIsNeitherRateLimitedNorBehindTheProxy() throws IOException {
        api.close();
        api = new SimulatedApi(
                        SimulatedApi.Settings.builder()
                                .rateLimit(1, Duration.ofMinutes(1))
                                .proxyFailEvery(1)
                                .build(),
                        clock)
                .start();
        client = new ApiTestClient(api);

        for (int i = 0; i < 3; i++) {
            assertThat(client.requestToken(api.currentRefreshToken()).statusCode())
                    .isEqualTo(200);
        }
        assertThat(api.counters().apiRequests()).isZero();
    }
}
