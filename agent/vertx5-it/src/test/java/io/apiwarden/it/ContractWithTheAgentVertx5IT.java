package io.apiwarden.it;

import io.apiwarden.adapters.ClientAdapterContract;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientAdapterContract} with the agent attached, on Vert.x 5's {@code HttpClient}: the suite's cases and the
 * tuned ones, each set in a JVM started with its properties, as the agent's module runs them on Vert.x 4.5. The DPoP
 * cases run on 4.5 only: proofs are made by the engine, the same on either line.
 */
class ContractWithTheAgentVertx5IT {
    @Test
    void vertx5KeepsTheContractWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert("contract-agent-vertx5", "!tuned & !dpop", Map.of(), Vertx5ContractFaces.class);
    }

    @Test
    void vertx5KeepsTheTunedCasesWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert(
                "contract-agent-vertx5-tuned",
                ClientAdapterContract.TUNED,
                ClientAdapterContract.TUNED_PROPERTIES,
                Vertx5ContractFaces.class);
    }
}
