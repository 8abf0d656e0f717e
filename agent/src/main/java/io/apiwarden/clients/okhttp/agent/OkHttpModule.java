package io.apiwarden.clients.okhttp.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

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

    @Override
    public void install(Instrumentation inst) {
        OkHttpInstrumentation.install(inst);
    }

    /** OkHttp connects in its own {@code okhttp3.internal.connection} classes, on the caller's or its dispatcher's thread. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("okhttp3.");
    }
}
