package io.apiwarden.clients.micronaut.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

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

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(MicronautInstrumentation.CLIENT);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return MicronautInstrumentation.weavings();
    }
}
