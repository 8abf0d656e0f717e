package io.apiwarden.it;

import io.apiwarden.adapters.ClientAdapterContract;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract's DPoP cases ({@link ClientAdapterContract#DPOP}) with the agent attached, every face, in a JVM
 * started with DPoP on and its key read from a file, as a fleet's would be; each case puts a server that verifies
 * the proofs behind the port the agent was given ({@link AgentManagement}).
 */
class ContractWithTheAgentDpopIT {
    @Test
    void theDpopCasesKeepTheContractWithTheAgentAttached() throws Exception {
        Map<String, String> properties = new HashMap<>(ClientAdapterContract.DPOP_PROPERTIES);
        properties.put("apiwarden.dpop.key-file", testKey().toString());
        ContractJvm.runAndAssert("contract-agent-dpop", ClientAdapterContract.DPOP, properties);
    }

    /** The test resources' EC P-256 key, on disk in the test classes' directory. */
    private static Path testKey() throws URISyntaxException {
        return Paths.get(ContractWithTheAgentDpopIT.class
                .getResource("/dpop/ec-p256.pem")
                .toURI());
    }
}
