package io.apiwarden.core.token;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.apiwarden.testing.FakeTimer;
import io.apiwarden.testing.MutableClock;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client-credentials grant on the wire: what each form of client authentication sends, and hostile answers. */
class ClientCredentialsEndpointTest {
    private static final String CLIENT_ID = "svc-orders";
    private static final String SECRET = "cs+Zm9yZ2Vk/9=:%x";

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

    private HttpTokenEndpoint endpoint(String scope, ClientAuthentication authentication) {
        return new HttpTokenEndpoint(
                server.url("/token").uri(),
                Grant.clientCredentials(scope),
                CLIENT_ID,
                SECRET,
                authentication,
                Duration.ofSeconds(5),
                () -> client,
                scheduler,
                clock);
    }

    private TokenGrant request(HttpTokenEndpoint endpoint) {
        return endpoint.refresh(endpoint.grant()
                        .credential(new io.apiwarden.core.token.store.TokenState(0, null, null, null, null)))
                .join();
    }

    private TokenRefreshException refusal(int status, String json) {
        server.enqueue(json(status, json));
        Throwable t = catchThrowable(() -> request(endpoint(null, ClientAuthentication.BASIC)));
        assertThat(t).hasCauseInstanceOf(TokenRefreshException.class);
        return (TokenRefreshException) t.getCause();
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder()
                .code(code)
                .addHeader("Content-Type", "application/json")
                .body(body)
                .build();
    }

    @Test
    void basicSendsTheGrantAloneInTheFormAndTheCredentialsInTheHeaderFormEncodedFirst() throws Exception {
        server.enqueue(json(200, "{\"access_token\":\"a-1\",\"token_type\":\"Bearer\",\"expires_in\":300}"));

        TokenGrant grant = request(endpoint(null, ClientAuthentication.BASIC));

        assertThat(grant.accessToken()).isEqualTo("a-1");
        assertThat(grant.expiresIn()).contains(Duration.ofMinutes(5));
        RecordedRequest r = server.takeRequest();
        assertThat(r.getMethod()).isEqualTo("POST");
        assertThat(r.getHeaders().get("Content-Type")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(r.getBody().utf8()).isEqualTo("grant_type=client_credentials");
        String pair = URLEncoder.encode(CLIENT_ID, StandardCharsets.UTF_8) + ":"
                + URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
        assertThat(r.getHeaders().get("Authorization"))
                .isEqualTo("Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void postSendsTheCredentialsInTheFormAndNoAuthorizationHeader() throws Exception {
        server.enqueue(json(200, "{\"access_token\":\"a-1\"}"));

        request(endpoint("orders.read orders.write", ClientAuthentication.POST));

        RecordedRequest r = server.takeRequest();
        assertThat(r.getHeaders().get("Authorization")).isNull();
        assertThat(r.getBody().utf8())
                .isEqualTo("grant_type=client_credentials&scope=orders.read+orders.write"
                        + "&client_id=svc-orders&client_secret=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8));
    }

    @Test
    void theRefreshTokenGrantAlsoTakesPostAuthenticationAndAScope() throws Exception {
        server.enqueue(json(200, "{\"access_token\":\"a-1\"}"));
        HttpTokenEndpoint endpoint = new HttpTokenEndpoint(
                server.url("/token").uri(),
                Grant.refreshToken("read"),
                CLIENT_ID,
                SECRET,
                ClientAuthentication.POST,
                Duration.ofSeconds(5),
                () -> client,
                scheduler,
                clock);

        endpoint.refresh("r-1").join();

        assertThat(server.takeRequest().getBody().utf8())
                .isEqualTo("grant_type=refresh_token&refresh_token=r-1&scope=read"
                        + "&client_id=svc-orders&client_secret=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8));
    }

    @Test
    void aRefreshTokenInTheAnswerIsIgnoredEvenOneThatCouldNotBeSent() {
        server.enqueue(json(200, "{\"access_token\":\"a-1\",\"refresh_token\":\"has a space\"}"));

        TokenGrant grant = request(endpoint(null, ClientAuthentication.BASIC));

        assertThat(grant.accessToken()).isEqualTo("a-1");
        assertThat(grant.refreshToken()).isEmpty();
    }

    @Test
    void invalidClientIsFinalAndNamesTheSettingsToCheckWithoutTheSecretInAnyForm() {
        String basic = Base64.getEncoder()
                .encodeToString((CLIENT_ID + ":" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8))
                        .getBytes(StandardCharsets.UTF_8));
        TokenRefreshException e = refusal(
                401,
                "{\"error\":\"invalid_client\",\"error_description\":\"bad secret " + SECRET + " / "
                        + URLEncoder.encode(SECRET, StandardCharsets.UTF_8) + " / Basic " + basic + "\"}");

        assertThat(e.permanent()).isTrue();
        assertThat(e.getMessage())
                .contains(
                        "client_credentials",
                        "HTTP 401",
                        "invalid_client",
                        "apiwarden.client-id",
                        "apiwarden.client-secret")
                .doesNotContain("refresh token");
        assertThat(e.getMessage()).doesNotContain(SECRET, URLEncoder.encode(SECRET, StandardCharsets.UTF_8), basic);
    }

    @Test
    void aRefusedScopeIsFinalAndNamesTheScopeSetting() {
        TokenRefreshException e = refusal(400, "{\"error\":\"invalid_scope\"}");

        assertThat(e.permanent()).isTrue();
        assertThat(e.getMessage()).contains("apiwarden.scope");
    }

    @Test
    void aClientNotAllowedThisGrantIsToldSo() {
        TokenRefreshException e = refusal(400, "{\"error\":\"unauthorized_client\"}");

        assertThat(e.permanent()).isTrue();
        assertThat(e.getMessage()).contains("may not use the client_credentials grant");
    }

    @Test
    void anUnknownErrorIsNotFinal() {
        TokenRefreshException e = refusal(400, "{\"error\":\"temporarily_unavailable\"}");

        assertThat(e.permanent()).isFalse();
    }

    @Test
    void aServerErrorIsRetriedAsForTheOtherGrant() {
        server.enqueue(json(503, "{}"));
        server.enqueue(json(200, "{\"access_token\":\"a-2\"}"));

        assertThat(request(endpoint(null, ClientAuthentication.BASIC)).accessToken())
                .isEqualTo("a-2");
        assertThat(server.getRequestCount()).isEqualTo(2);
    }

    @Test
    void describingTheEndpointShowsNoCredential() {
        assertThat(endpoint("read", ClientAuthentication.POST).toString())
                .contains("client_credentials", "post")
                .doesNotContain(SECRET, CLIENT_ID);
    }
}
