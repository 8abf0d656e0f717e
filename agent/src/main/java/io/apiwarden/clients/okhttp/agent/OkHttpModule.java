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
}
