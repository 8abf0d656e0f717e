package io.apiwarden.clients.jdk.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The JDK's {@code java.net.http.HttpClient}: every client the app builds is wrapped (library mode: {@code WardenHttpClient}). */
public final class JdkModule implements ClientModule {
    private static final String LIBRARY = "io.apiwarden.clients.jdk.library.";
    private static final List<String> FIRST_CALL = List.of(
            LIBRARY + "InternalClients",
            LIBRARY + "WardenHttpClient",
            LIBRARY + "LastAttemptHeaders",
            LIBRARY + "LastAttemptHeaders$Merged",
            LIBRARY + "ManagedCall",
            LIBRARY + "ManagedCall$JdkAttempt",
            LIBRARY + "AttemptRequest",
            LIBRARY + "OutcomeHandler",
            LIBRARY + "OutcomeHandler$Delivered",
            LIBRARY + "HeaderValues",
            LIBRARY + "LastAttemptHeaders$AllHeaders",
            LIBRARY + "Outcome",
            LIBRARY + "AppResponse");

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

    /**
     * The wrapper and its call, loaded ahead in the agent's loader ({@link ClientModule#warmUp}): the app's thread is
     * still building its client.
     */
    @Override
    public List<String> firstCallClasses() {
        return FIRST_CALL;
    }

    /** The JDK client's own classes connect, on its executor's threads or the caller's. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("jdk.internal.net.http.");
    }
}
