package io.apiwarden.clients.vertx.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/** Vert.x core's {@code HttpClient} 4.5 and 5 (and so Vert.x {@code WebClient} and the Quarkus REST client): its requests to the API managed. */
public final class VertxHttpModule implements ClientModule {
    /**
     * Whether the Vert.x that {@code type} belongs to is a line the glue manages, 4.5 or 5 ({@code VertxLine} tells
     * the same way: 4.5's request has {@code end(Handler)}, 5's {@code cancel()}). Once per class: looked up in a
     * loader where Vert.x is loaded already.
     */
    private static final ClassValue<Boolean> MANAGED_VERSION = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                Class<?> request = Class.forName("io.vertx.core.http.HttpClientRequest", false, type.getClassLoader());
                Class<?> handler = Class.forName("io.vertx.core.Handler", false, type.getClassLoader());
                return has(request, "end", handler) || has(request, "cancel");
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return false;
            }
        }
    };

    private static boolean has(Class<?> type, String name, Class<?>... parameters) {
        try {
            type.getMethod(name, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    @Override
    public String name() {
        return "vertx-http-client";
    }

    @Override
    public String displayName() {
        return "Vert.x HttpClient";
    }

    /**
     * Vert.x connects through Netty's bootstrap, which hands the connect to the event loop as a task: no Vert.x frame
     * is on its stack, but the thread is Vert.x's own ({@code VertxThread}).
     */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("io.vertx.") && MANAGED_VERSION.get(type);
    }

    /** Whether the Vert.x of {@code client} (a class of its) is the version the glue manages. */
    static boolean manages(Class<?> client) {
        return MANAGED_VERSION.get(client);
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(VertxHttpInstrumentation.CLIENT);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return VertxHttpInstrumentation.weavings();
    }
}
