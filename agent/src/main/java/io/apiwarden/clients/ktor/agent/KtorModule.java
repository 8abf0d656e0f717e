package io.apiwarden.clients.ktor.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

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

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(KtorInstrumentation.ENGINE);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return KtorInstrumentation.weavings();
    }

    /** The CIO engine's connections: the engine and its coroutines' classes are on the connect's stack. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("io.ktor.client.engine.cio.")
                || type.getName().startsWith("io.ktor.network.");
    }
}
