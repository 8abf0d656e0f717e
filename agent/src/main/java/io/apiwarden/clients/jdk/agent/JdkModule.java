package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

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

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(JdkHttpClientInstrumentation.BUILDER_CLASS);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return JdkHttpClientInstrumentation.weavings();
    }

    /** The JDK client's own classes connect, on its executor's threads or the caller's. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("jdk.internal.net.http.");
    }
}
