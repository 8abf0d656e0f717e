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
}
