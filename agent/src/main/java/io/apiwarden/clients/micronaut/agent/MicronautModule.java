package io.apiwarden.clients.micronaut.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

/** Micronaut's HTTP client 4, the Netty one (library mode: {@code WardenMicronautHttp}). */
public final class MicronautModule implements ClientModule {
    @Override
    public String name() {
        return "micronaut-http-client";
    }

    @Override
    public String displayName() {
        return "Micronaut HTTP client";
    }

    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("io.micronaut.http.client.");
    }

    /** Its Netty client connects from a task on its event loop: only Netty and the JDK are on that stack. */
    @Override
    public boolean connectsFromPlainNettyLoops() {
        return true;
    }

    @Override
    public void install(Instrumentation inst) {
        MicronautInstrumentation.install(inst);
    }
}
