package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

/** The JDK's {@code java.net.http.HttpClient}: every client the app builds is wrapped (library mode: {@code WardenHttpClient}). */
public final class JdkModule implements ClientModule {
    @Override
    public String name() {
        return "jdk-http-client";
    }

    @Override
    public String displayName() {
        return "java.net.http.HttpClient";
    }

    @Override
    public void install(Instrumentation inst) {
        JdkHttpClientInstrumentation.install(inst);
    }

    /** The JDK client's own classes connect, on its executor's threads or the caller's. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("jdk.internal.net.http.");
    }
}
