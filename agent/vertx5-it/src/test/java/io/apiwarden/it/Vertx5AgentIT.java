package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.vertx5it.Vertx5App;
import java.util.List;
import java.util.stream.Collectors;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Vert.x 5's {@code HttpClient} (5.1) with the agent attached: every call of the four scenes ends with 200, as with
 * Vert.x 4.5 (Quarkus), and a body the app writes piece by piece is recorded and sent again after a refusal of the
 * API's rate limit; and a GET through Vert.x 5's {@code WebClient} (its requests go through an {@code HttpClient} of
 * its own) carries the bearer and is sent again after a refusal of the rate limit.
 */
class Vertx5AgentIT extends AgainstFakeApi {
    private static final String CLIENT = "Vert.x 5 HttpClient";

    @Test
    void everyCallOfTheFourScenesEndsWith200() throws Exception {
        String origin = url("").replaceAll("/$", "");
        AgentJvm.Result r = FourScenes.agentFor(this).run(Vertx5App.class, origin);

        FourScenes.assertAllManaged(r, api, CLIENT);
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("through Vert.x HttpClient"));
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains("WARN"));

        assertThat(r.stdout).as(r.toString()).contains("streamed 200 user");
        List<RecordedRequest> streamed = api.apiRequests.stream()
                .filter(q -> "streamed".equals(q.getUrl().queryParameter("scene")))
                .collect(Collectors.toList());
        assertThat(streamed)
                .as("a body written piece by piece, refused by the rate limit, sent again whole")
                .hasSize(2)
                .allSatisfy(q -> {
                    assertThat(q.getBody().utf8()).isEqualTo("{\"part\":1,\"part\":2}");
                    assertThat(q.getHeaders().get("Authorization")).startsWith("Bearer ");
                });

        assertThat(r.stdout).as(r.toString()).contains("webclient 200 user");
        List<String> webClientTokens = api.apiRequests.stream()
                .filter(q -> "webclient".equals(q.getUrl().queryParameter("scene")))
                .map(q -> q.getHeaders().get("Authorization"))
                .collect(Collectors.toList());
        assertThat(webClientTokens)
                .as("WebClient's GET: with the bearer, refused by the rate limit, sent again")
                .hasSize(2)
                .allSatisfy(token -> assertThat(token).startsWith("Bearer " + FakeOAuthApi.ISSUED_TOKEN + "-"));
    }
}
