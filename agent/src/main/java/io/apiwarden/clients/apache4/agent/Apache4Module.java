package io.apiwarden.clients.apache4.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/** Apache HttpClient 4 classic, the clients its builder builds (library mode: {@code WardenApacheHttp4}). */
public final class Apache4Module implements ClientModule {
    @Override
    public String name() {
        return "apache-httpclient4";
    }

    @Override
    public String displayName() {
        return "Apache HttpClient 4";
    }

    /** Only the clients its builder builds have the exec chain the agent joins; the minimal client stays unmanaged. */
    @Override
    public String managedForm() {
        return "Apache HttpClient 4 built with its builder";
    }

    /** The client its builder builds, which the watch names only while this module is off. */
    @Override
    public Set<String> managedClassesTheWatchKnows() {
        return Set.of("org/apache/http/impl/client/InternalHttpClient");
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(Apache4Instrumentation.BUILDER);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return Apache4Instrumentation.weavings();
    }

    /** HttpClient 4 connects in its connection operator, on the caller's thread. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("org.apache.http.");
    }
}
