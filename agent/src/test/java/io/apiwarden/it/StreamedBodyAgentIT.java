package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.it.apps.JdkClientApp;
import io.apiwarden.it.apps.StreamedBody;
import java.nio.charset.StandardCharsets;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Streamed request bodies ({@code BodyPublishers.fromPublisher}, as Spring's JDK-based clients
 * send every body) in an app started with {@code -javaagent}: recorded as they are sent, resent
 * from the recording when the call needs it, and not resent, saying why, when they are too long.
 */
class StreamedBodyAgentIT extends AgainstFakeApi {
    private static final int SIZE = 20_000;
    private static final String BODY = new String(StreamedBody.content(SIZE), StandardCharsets.US_ASCII);

    private AgentJvm app(String accessToken) {
        return new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.auth-url", url("/auth"))
                .property("apiwarden.access-token", accessToken)
                .property("apiwarden.refresh-token", "refresh-5e1f")
                .property("apiwarden.backoff.initial-delay", "50ms");
    }

    @Test
    void aStreamedPostIntoTheRateLimitEndsWellAfterTheBackOff() throws Exception {
        api.rateLimitFirst = 2;

        AgentJvm.Result r = app(FakeOAuthApi.ISSUED_TOKEN)
                .run(JdkClientApp.class, "post-stream:" + SIZE + ":" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 200 user");
        assertThat(posts())
                .hasSize(3)
                .allSatisfy(post -> assertThat(post.getBody().utf8()).isEqualTo(BODY));
        assertThat(api.tokenRequests).isEmpty();
        // Lower bounds only: a wait may run late on a busy machine, never early.
        assertThat((api.apiArrivalNanos.get(1) - api.apiArrivalNanos.get(0)) / 1_000_000)
                .isGreaterThanOrEqualTo(50);
        assertThat((api.apiArrivalNanos.get(2) - api.apiArrivalNanos.get(1)) / 1_000_000)
                .isGreaterThanOrEqualTo(100);
    }

    @Test
    void aStreamedBodyOverTheBoundGetsTheApisAnswerAndTheDebugLogSaysWhy() throws Exception {
        AgentJvm.Result r = app("stale-access-0d0d")
                .property("apiwarden.resend.max-recorded-body", "16KiB")
                .property("apiwarden.log.level", "debug")
                .run(JdkClientApp.class, "post-stream:" + SIZE + ":" + url("/api/v1/items"));

        assertThat(r.stdout).as(r.toString()).containsExactly("STATUS 401 {\"message\":\"OAuth invalid token\"}");
        assertThat(posts())
                .singleElement()
                .satisfies(post -> assertThat(post.getBody().utf8()).isEqualTo(BODY));
        assertThat(api.tokenRequests).isEmpty();
        assertThat(r.agentLog()).anySatisfy(line -> assertThat(line)
                .contains("DEBUG", "not resent (body_too_large_to_replay)", "invalid_token on POST /api/v1/items"));
    }

    private java.util.List<RecordedRequest> posts() {
        return api.apiRequests.stream()
                .filter(q -> q.getMethod().equals("POST"))
                .collect(java.util.stream.Collectors.toList());
    }
}
