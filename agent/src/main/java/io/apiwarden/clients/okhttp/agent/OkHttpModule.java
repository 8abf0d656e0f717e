package io.apiwarden.clients.okhttp.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** OkHttp 3, 4 and 5: the agent's interceptors go into every {@code OkHttpClient} (library mode: {@code WardenOkHttp}). */
public final class OkHttpModule implements ClientModule {
    private static final String LIBRARY = "io.apiwarden.clients.okhttp.library.";
    /** Glue classes, defined beside the app's OkHttp ({@code Glues}), not in the agent's loader. */
    private static final List<String> FIRST_CALL = List.of(
            LIBRARY + "OkHttpGlue",
            LIBRARY + "WardenOkHttp",
            LIBRARY + "CancelWatch",
            LIBRARY + "CancelWatch$1",
            LIBRARY + "EnqueuedCalls",
            LIBRARY + "EnqueuedCalls$1",
            LIBRARY + "WardenInterceptor",
            LIBRARY + "TokenFence",
            LIBRARY + "TokenFence$AgentToken",
            LIBRARY + "OkHttpRequest",
            LIBRARY + "OkHttpExchange",
            LIBRARY + "AttemptRequest",
            LIBRARY + "AttemptRequest$HeaderSetter",
            LIBRARY + "ResponseHeaders",
            LIBRARY + "OkHttpAttempt");

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

    /**
     * The glue, defined ahead beside the app's OkHttp: the app's thread is still loading OkHttp's classes for its
     * first client then, some 100 ms of them.
     */
    @Override
    public void warmUp(ClassLoader libraryLoader) {
        if (libraryLoader != null) {
            OkHttpHook.prepare(libraryLoader, FIRST_CALL);
        }
    }

    @Override
    public List<String> firstCallClasses() {
        return FIRST_CALL;
    }

    /** OkHttp connects in its own {@code okhttp3.internal.connection} classes, on the caller's or its dispatcher's thread. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("okhttp3.");
    }
}
