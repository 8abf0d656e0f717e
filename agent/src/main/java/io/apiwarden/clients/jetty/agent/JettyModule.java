package io.apiwarden.clients.jetty.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/** Jetty's client 12 (library mode: {@code WardenJettyHttp}); Jetty 9 to 11 stay watched, unmanaged. */
public final class JettyModule implements ClientModule {
    @Override
    public String name() {
        return "jetty-httpclient";
    }

    @Override
    public String displayName() {
        return "Jetty HttpClient 12";
    }

    /** The class whose {@code send(listener)} every request of Jetty 12 goes through, which the watch names only while this module is off. */
    @Override
    public Set<String> managedClassesTheWatchKnows() {
        return Set.of(JettyInstrumentation.REQUEST);
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(JettyInstrumentation.REQUEST);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return JettyInstrumentation.weavings();
    }

    /** Jetty connects in its {@code ClientConnector}. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("org.eclipse.jetty.");
    }
}
