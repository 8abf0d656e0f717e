package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import mockwebserver3.RecordedRequest;

/**
 * The four scenes a real app with no auth code plays against {@link FakeOAuthApi} with the agent attached (the
 * Quarkus and Micronaut test apps): a GET with the bearer ({@code bearer}); a GET after the API revoked the token
 * ({@code refresh}); a JSON POST after a revocation ({@code post}); a GET into a 3 s window of the API's global rate
 * limit ({@code rate-limit-window}). The app sets each scene through the fake API's own paths, marks each GET with
 * {@code ?scene=} and each POST with its JSON body, and prints one JSON line per call.
 */
final class FourScenes {
    static final List<String> SCENES = List.of("bearer", "refresh", "post", "rate-limit-window");
    private static final String REFRESH_TOKEN = "first-refresh-4f0c3e";
    /** The agent's first back-off; the window's Retry-After decides the wait of the last scene. */
    private static final String BACKOFF = "100ms";

    private FourScenes() {}

    /**
     * An app JVM with the agent attached and no first access token: the agent refreshes before the first call,
     * so the first scene is the bearer alone.
     */
    static AgentJvm agentFor(AgainstFakeApi test) {
        test.api.revocable = true;
        return new AgentJvm()
                .property("apiwarden.base-url", test.url("/api/v1"))
                .property("apiwarden.auth-url", test.url("/auth"))
                .property("apiwarden.refresh-token", REFRESH_TOKEN)
                .property("apiwarden.backoff.initial-delay", BACKOFF);
    }

    /** Every call ended with 200, and the API saw each scene managed: the bearer, one refresh each, the gate held. */
    static void assertAllManaged(AgentJvm.Result r, FakeOAuthApi api, String client) {
        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout)
                .as(r.toString())
                .filteredOn(l -> l.startsWith("{"))
                .containsExactlyElementsOf(SCENES.stream()
                        .map(s -> "{\"client\":\"" + client + "\",\"scenario\":\"" + s
                                + "\",\"status\":200,\"body\":\"user\"}")
                        .collect(Collectors.toList()));
        assertThat(r.all()).doesNotContain(FakeOAuthApi.ISSUED_TOKEN, REFRESH_TOKEN);

        List<String> bearer = authorizations(api, "bearer");
        assertThat(bearer)
                .as("the first call: the bearer of the first refresh, once")
                .hasSize(1);
        assertThat(bearer.get(0)).startsWith("Bearer " + FakeOAuthApi.ISSUED_TOKEN + "-");

        List<String> refresh = authorizations(api, "refresh");
        assertThat(refresh).as("a GET refused for its revoked token, resent").hasSize(2);
        assertThat(refresh.get(1)).isNotEqualTo(refresh.get(0)).isNotEqualTo(bearer.get(0));

        List<RecordedRequest> posts = api.apiRequests.stream()
                .filter(q -> q.getBody() != null && q.getBody().utf8().contains("\"scenario\":\"post\""))
                .collect(Collectors.toList());
        assertThat(posts)
                .as("a JSON POST refused for its revoked token, resent")
                .hasSize(2);
        assertThat(posts)
                .extracting(q -> q.getBody().utf8())
                .containsOnly(posts.get(0).getBody().utf8());
        assertThat(posts)
                .extracting(q -> q.getHeaders().get("Content-Type"))
                .allMatch(type -> type.startsWith("application/json"));
        String fresh = posts.get(1).getHeaders().get("Authorization");
        assertThat(fresh).isNotEqualTo(posts.get(0).getHeaders().get("Authorization"));

        assertThat(authorizations(api, "rate-limit-window"))
                .as("a GET refused in the window, resent once the window closed")
                .containsExactly(fresh, fresh);
        assertThat(api.duringWindow)
                .as("requests the API refused in its window")
                .hasValue(1);
        assertThat(api.tokenRequests)
                .as("one refresh first, one per revocation")
                .hasSize(3);
    }

    /** The Authorization headers of the API requests of one scene's GET, in the order of arrival. */
    private static List<String> authorizations(FakeOAuthApi api, String scene) {
        return api.apiRequests.stream()
                .filter(q -> scene.equals(q.getUrl().queryParameter("scene")))
                .map(q -> q.getHeaders().get("Authorization"))
                .collect(Collectors.toList());
    }
}
