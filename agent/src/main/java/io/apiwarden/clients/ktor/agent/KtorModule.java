package io.apiwarden.clients.ktor.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

/** Ktor's client on its CIO engine (library mode: {@code WardenKtor}). */
public final class KtorModule implements ClientModule {
    @Override
    public String name() {
        return "ktor-client";
    }

    @Override
    public String displayName() {
        return "Ktor client (CIO engine)";
    }

    @Override
    public void install(Instrumentation inst) {
        KtorInstrumentation.install(inst);
    }

    /** The CIO engine's connections: the engine and its coroutines' classes are on the connect's stack. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("io.ktor.client.engine.cio.")
                || type.getName().startsWith("io.ktor.network.");
    }
}
