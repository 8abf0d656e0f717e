package io.apiwarden.clients.apache5.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Apache HttpClient 5, classic and async, one switch for the two (library mode: {@code WardenApacheHttp}). */
public final class Apache5Module implements ClientModule {
    private static final String LIBRARY = "io.apiwarden.clients.apache5.library.";
    /** Glue classes, defined beside the app's copy of the library ({@code Glues}), not in the agent's loader. */
    private static final List<String> FIRST_CALL = List.of(
            LIBRARY + "ApacheHttpGlue",
            LIBRARY + "WardenApacheHttp",
            LIBRARY + "ClassicHandler",
            LIBRARY + "AsyncHandler",
            LIBRARY + "ClassicExchange",
            LIBRARY + "ClassicExchange$AttemptRequest",
            LIBRARY + "ClassicExchange$ClassicAttempt",
            LIBRARY + "Target",
            LIBRARY + "EarlierRun",
            LIBRARY + "Messages");

    @Override
    public String name() {
        return "apache-httpclient";
    }

    @Override
    public String displayName() {
        return "Apache HttpClient 5";
    }

    /** Only the clients its builders build have the exec chain the agent joins; the minimal clients stay unmanaged. */
    @Override
    public String managedForm() {
        return "Apache HttpClient 5 built with its builder";
    }

    /** The clients its builders build, which the watch names only while this module is off. */
    @Override
    public Set<String> managedClassesTheWatchKnows() {
        return Set.of(
                "org/apache/hc/client5/http/impl/classic/InternalHttpClient",
                "org/apache/hc/client5/http/impl/async/InternalAbstractHttpAsyncClient");
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(
                ApacheHttpInstrumentation.CLASSIC_BUILDER,
                ApacheHttpInstrumentation.ASYNC_BUILDER,
                ApacheHttpInstrumentation.H2_ASYNC_BUILDER);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return ApacheHttpInstrumentation.weavings();
    }

    /** The classic client connects in its connection operator, the async one on its I/O reactor's threads. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("org.apache.hc.");
    }

    /** The glue, defined ahead beside the app's client: apps build their client at start-up, long before its first call. */
    @Override
    public void warmUp(ClassLoader libraryLoader) {
        if (libraryLoader != null) {
            ApacheHttpHook.prepare(libraryLoader, FIRST_CALL);
        }
    }

    @Override
    public List<String> firstCallClasses() {
        return FIRST_CALL;
    }
}
