package io.apiwarden.it;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link io.apiwarden.adapters.ClientAdapterContract} with the agent attached, every face, with the suite's
 * properties. The cases tagged {@code tuned} run in {@link ContractWithTheAgentTunedIT}, those tagged {@code dpop} in
 * {@link ContractWithTheAgentDpopIT}: each set needs a JVM started with properties of its own.
 */
class ContractWithTheAgentIT {
    @Test
    void everyFaceKeepsTheContractWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert("contract-agent", "!tuned & !dpop", Map.of());
    }
}
