package io.apiwarden.clients.vertx.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

/** Vert.x core's {@code HttpClient} (and so Vert.x {@code WebClient} and the Quarkus REST client): its requests to the API managed. */
public final class VertxHttpModule implements ClientModule {
    /**
     * Whether the Vert.x that {@code type} belongs to has the 4.x API the glue manages ({@code VertxHttpGlue} tells
     * the same way); Vert.x 5 is not managed yet. Once per class: looked up in a loader where Vert.x is loaded already.
     */
    private static final ClassValue<Boolean> MANAGED_VERSION = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            try {
                Class.forName("io.vertx.core.http.HttpClient", false, type.getClassLoader())
                        .getMethod("redirectHandler");
                return true;
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                return false;
            }
        }
    };

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

    @Override
    public void install(Instrumentation inst) {
        VertxHttpInstrumentation.install(inst);
    }
}
