package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.OkHttpApp;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Apps on the JDK client and on OkHttp, started with the agent and only client credentials
 * ({@code apiwarden.grant=client_credentials}): no access token, no refresh token.
 */
class ClientCredentialsAgentIT extends AgainstFakeApi {
    private static final String CLIENT_ID = "svc-orders";
    /** With the characters HTTP Basic must form-encode first (RFC 6749 section 2.3.1). */
    private static final String SECRET = "cs+Zm9yZ2Vk/9=:x";

    private static final String WRONG_SECRET = "wrong+c2VjcmV0/7=:y";

    private AgentJvm jdkApp(String secret) {
        api.clientId = CLIENT_ID;
        api.clientSecret = SECRET;
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.grant", "client_credentials")
                .property("apiwarden.client-id", CLIENT_ID)
                .property("apiwarden.client-secret", secret);
    }

    private AgentJvm okHttpApp(String secret) throws Exception {
        AgentJvm jvm = jdkApp(secret);
        try (Stream<Path> jars = Files.list(AgentJvm.itLib("okhttp5"))) {
            jars.sorted().forEach(jvm::classPath);
        }
        return jvm;
    }

    /** The secret in every form it leaves the agent: as is, form-encoded, and inside the Basic header's base64. */
    private static String[] secretForms(String secret) {
        String encoded = URLEncoder.encode(secret, StandardCharsets.UTF_8);
        String basic = Base64.getEncoder().encodeToString((CLIENT_ID + ":" + encoded).getBytes(StandardCharsets.UTF_8));
        return new String[] {secret, encoded, basic};
    }

    private void assertOneTokenRequestPerIssueInHttpBasic(int expected) {
        assertThat(api.tokenRequests("client_credentials")).isEqualTo(expected);
        assertThat(api.tokenRequests("refresh_token")).isZero();
        for (RecordedRequest token : api.tokenRequests) {
            assertThat(token.getBody().utf8()).isEqualTo("grant_type=client_credentials");
            assertThat(token.getHeaders().get("Authorization")).isEqualTo("Basic " + secretForms(SECRET)[2]);
        }
    }

    @Test
    void jdkClientStartsWithNoTokenAndARevocationCostsExactlyOneTokenRequest() throws Exception {
        api.revocable = true;

        AgentJvm.Result r = jdkApp(SECRET)
                .run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "async:" + url("/api/v1/user"),
                        "send:" + url("/revoke"),
                        "concurrent:40:" + url("/api/v1/user"),
                        "send:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .containsExactly(
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 revoked",
                        "STATUSES {200=40}",
                        "STATUS 200 user");
        assertThat(api.issuedCount())
                .as("one at the start, one after the revocation")
                .isEqualTo(2);
        assertOneTokenRequestPerIssueInHttpBasic(2);
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization"))
                .isEqualTo("Bearer " + FakeOAuthApi.ISSUED_TOKEN + "-1");
        assertThat(r.all()).doesNotContain(secretForms(SECRET)).doesNotContain(FakeOAuthApi.ISSUED_TOKEN);
    }

    @Test
    void okHttpStartsWithNoTokenAndARevocationCostsExactlyOneTokenRequest() throws Exception {
        api.revocable = true;

        AgentJvm.Result r = okHttpApp(SECRET)
                .run(
                        OkHttpApp.class,
                        "execute:" + url("/api/v1/user"),
                        "enqueue:" + url("/api/v1/user"),
                        "execute:" + url("/revoke"),
                        "storm:30:" + url("/api/v1/user") + ":" + url("/other"),
                        "enqueue:" + url("/api/v1/user"));

        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("STATUS") || l.startsWith("STORM"))
                .containsExactly(
                        "STATUS 200 user",
                        "STATUS 200 user",
                        "STATUS 200 revoked",
                        "STORM {STATUS 200 user=30}",
                        "STATUS 200 user");
        assertThat(api.issuedCount())
                .as("one at the start, one after the revocation")
                .isEqualTo(2);
        assertOneTokenRequestPerIssueInHttpBasic(2);
        assertThat(r.all()).doesNotContain(secretForms(SECRET)).doesNotContain(FakeOAuthApi.ISSUED_TOKEN);
    }

    @Test
    void postClientAuthenticationSendsTheCredentialsInTheForm() throws Exception {
        AgentJvm.Result r = jdkApp(SECRET)
                .property("apiwarden.client-auth", "post")
                .property("apiwarden.scope", "orders.read")
                .run(JdkClientApp.class, "send:" + url("/api/v1/user"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user");
        RecordedRequest token = api.tokenRequests.get(0);
        assertThat(token.getHeaders().get("Authorization")).isNull();
        assertThat(token.getBody().utf8())
                .isEqualTo("grant_type=client_credentials&scope=orders.read&client_id=" + CLIENT_ID + "&client_secret="
                        + URLEncoder.encode(SECRET, StandardCharsets.UTF_8));
    }

    @Test
    void aWrongSecretOnTheJdkClientGivesOneClearLineAndTheAppGetsTheApisAnswers() throws Exception {
        AgentJvm.Result r = jdkApp(WRONG_SECRET)
                .run(
                        JdkClientApp.class,
                        "send:" + url("/api/v1/user"),
                        "async:" + url("/api/v1/user"),
                        "send:" + url("/api/v1/user"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .containsExactly(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertRefusedOnceWithOneClearLine(r);
    }

    @Test
    void aWrongSecretOnOkHttpGivesOneClearLineAndTheAppGetsTheApisAnswers() throws Exception {
        AgentJvm.Result r = okHttpApp(WRONG_SECRET)
                .run(
                        OkHttpApp.class,
                        "execute:" + url("/api/v1/user"),
                        "enqueue:" + url("/api/v1/user"),
                        "execute:" + url("/api/v1/user"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .filteredOn(l -> l.startsWith("STATUS"))
                .containsExactly(
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}",
                        "STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertRefusedOnceWithOneClearLine(r);
    }

    /** One token request, refused; every call unmanaged-equivalent (no bearer); one error line naming what to check; no secret. */
    private void assertRefusedOnceWithOneClearLine(AgentJvm.Result r) {
        assertThat(api.tokenRequests).hasSize(1);
        assertThat(api.apiRequests)
                .hasSize(3)
                .allSatisfy(q -> assertThat(q.getHeaders().get("Authorization")).isNull());
        List<String> errors =
                r.agentLog().stream().filter(l -> l.contains("ERROR")).collect(java.util.stream.Collectors.toList());
        assertThat(errors)
                .as(r.toString())
                .singleElement()
                .asString()
                .contains(
                        "client_credentials",
                        "invalid_client",
                        "apiwarden.client-id",
                        "apiwarden.client-secret",
                        "<redacted>");
        assertThat(r.agentLog())
                .as(r.toString())
                .filteredOn(l -> l.contains("WARN"))
                .isEmpty();
        assertThat(r.all()).doesNotContain(secretForms(WRONG_SECRET)).doesNotContain(secretForms(SECRET));
    }
}
