package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * A Quarkus 3 uber-jar (built by the Quarkus Maven plugin, as a user builds one) started with the agent: its REST
 * client goes through Vert.x's HttpClient, which the agent manages. Every call of the four scenes ends with 200.
 */
class QuarkusAgentIT extends AgainstFakeApi {
    private static final String CLIENT = "Quarkus REST client";

    @Test
    void everyCallOfTheFourScenesEndsWith200() throws Exception {
        String origin = url("").replaceAll("/$", "");
        AgentJvm.Result r = FourScenes.agentFor(this)
                .property("quarkus.rest-client.api.url", origin)
                .runJar(Paths.get(System.getProperty("apiwarden.it.app-jar")));

        FourScenes.assertAllManaged(r, api, CLIENT);
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("through Vert.x HttpClient"));
    }
}
