package io.apiwarden.it;

import io.apiwarden.adapters.ClientAdapterContract;
import org.junit.jupiter.api.Test;

/**
 * The contract's cases that need properties of their own ({@link ClientAdapterContract#TUNED_PROPERTIES}),
 * with the agent attached, in a JVM started with them.
 */
class ContractWithTheAgentTunedIT {
    @Test
    void theTunedCasesKeepTheContractWithTheAgentAttached() throws Exception {
        ContractJvm.runAndAssert(
                "contract-agent-tuned", ClientAdapterContract.TUNED, ClientAdapterContract.TUNED_PROPERTIES);
    }
}
