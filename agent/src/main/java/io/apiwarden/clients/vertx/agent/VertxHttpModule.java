package io.apiwarden.clients.vertx.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

/** Vert.x core's {@code HttpClient} (and so Vert.x {@code WebClient} and the Quarkus REST client): its requests to the API managed. */
public final class VertxHttpModule implements ClientModule {
    @Override
    public String name() {
        return "vertx-http-client";
    }

    @Override
    public String displayName() {
        return "Vert.x HttpClient";
    }

    @Override
    public void install(Instrumentation inst) {
        VertxHttpInstrumentation.install(inst);
    }
}
