package io.apiwarden.it;

import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.VertxFace;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Nested;

/**
 * The agent-attached half of the contract on Vert.x 5: the face of {@link ClientAdapterContractAgentIT}'s
 * {@code VertxHttp}, built here against Vert.x 5 (the agent's test jar has it built against 4.5, whose
 * {@code Vertx.createHttpClient()} returns another type). Run by {@link ContractWithTheAgentVertx5IT} in a JVM with
 * the agent attached; not a test of its own.
 */
class Vertx5ContractFaces {
    @Nested
    class VertxHttp5 extends ClientAdapterContractAgentIT.WithTheAgent {
        @Override
        ClientFace plainFace(boolean followRedirects) {
            Vertx vertx = Vertx.vertx();
            return new VertxFace(vertx, vertx.createHttpClient(), followRedirects);
        }
    }
}
