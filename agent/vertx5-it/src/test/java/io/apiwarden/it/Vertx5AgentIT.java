package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.vertx5it.Vertx5App;
import org.junit.jupiter.api.Test;

/**
 * Vert.x 5's {@code HttpClient} (5.1) with the agent attached: not managed yet, so the app's call goes as without
 * the agent, the agent names Vert.x 5 once, and it never claims to manage it. When Vert.x 5 is managed, this test
 * turns into the four scenes.
 */
class Vertx5AgentIT extends AgainstFakeApi {
    @Test
    void vertx5IsNamedOnceAndLeftAlone() throws Exception {
        AgentJvm.Result r = new AgentJvm()
                .property("apiwarden.base-url", url("/api/v1"))
                .property("apiwarden.access-token", FakeOAuthApi.ISSUED_TOKEN)
                .run(Vertx5App.class, url("/api/v1/user"));

        assertThat(r.exitCode).as(r.toString()).isZero();
        assertThat(r.stdout).as(r.toString()).containsExactly("status 401");
        assertThat(api.apiRequests).hasSize(1);
        assertThat(api.apiRequests.get(0).getHeaders().get("Authorization")).isNull();
        assertThat(r.agentLog())
                .as(r.toString())
                .filteredOn(l -> l.contains("WARN"))
                .singleElement()
                .asString()
                .contains("went out through Vert.x 5, which the agent does not manage");
        assertThat(r.agentLog()).as(r.toString()).noneMatch(l -> l.contains("managing calls to"));
    }
}
