package io.apiwarden.it;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link io.apiwarden.adapters.ClientAdapterContract} with the agent attached, every face, with the suite's
 * properties (the cases tagged {@code tuned} run in {@link ContractWithTheAgentTunedIT}).
 */
class ContractWithTheAgentIT {
    @Test
    void everyFaceKeepsTheContractWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert("contract-agent", "!tuned", Map.of());
    }
}
