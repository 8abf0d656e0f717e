package io.apiwarden.it;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link io.apiwarden.adapters.ClientAdapterContract} with the agent attached, every face, with the suite's
 * properties (the cases tagged {@code tuned} run in {@link ContractWithTheAgentTunedIT}). The cases tagged
 * {@code dpop} run in library mode only: with the agent they need a JVM started with DPoP on and a
 * DPoP-verifying server behind {@link AgentManagement}, which is not built yet.
 */
class ContractWithTheAgentIT {
    @Test
    void everyFaceKeepsTheContractWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert("contract-agent", "!tuned & !dpop", Map.of());
    }
}
