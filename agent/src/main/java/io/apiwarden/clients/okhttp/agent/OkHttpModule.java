package io.apiwarden.clients.okhttp.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/** OkHttp 3, 4 and 5: the agent's interceptors go into every {@code OkHttpClient} (library mode: {@code WardenOkHttp}). */
public final class OkHttpModule implements ClientModule {
    @Override
    public String name() {
        return "okhttp";
    }

    @Override
    public String displayName() {
        return "OkHttp";
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(OkHttpInstrumentation.CLIENT, OkHttpInstrumentation.CALL, OkHttpInstrumentation.CALL_3);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return OkHttpInstrumentation.weavings();
    }

    /** OkHttp connects in its own {@code okhttp3.internal.connection} classes, on the caller's or its dispatcher's thread. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("okhttp3.");
    }
}
