package io.apiwarden.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * A Micronaut 4 app (a shaded jar, as Micronaut's Maven packaging builds one) started with the agent: its
 * declarative {@code @Client} goes through Micronaut's Netty client, which the agent manages. Every call of the four
 * scenes ends with 200.
 */
class MicronautAgentIT extends AgainstFakeApi {
    private static final String CLIENT = "Micronaut @Client";

    @Test
    void everyCallOfTheFourScenesEndsWith200() throws Exception {
        AgentJvm.Result r = FourScenes.agentFor(this)
                .property("api.origin", url("").replaceAll("/$", ""))
                .runJar(Paths.get(System.getProperty("apiwarden.it.app-jar")));

        FourScenes.assertAllManaged(r, api, CLIENT);
        assertThat(r.agentLog())
                .as(r.toString())
                .anyMatch(l -> l.contains("managing calls to") && l.contains("through Micronaut"));
    }
}
