package io.apiwarden.clients.vertx.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.vertx.bridge.VertxHttpBridge;
import io.apiwarden.core.log.AgentLog;

/**
 * What the code woven into Vert.x's HTTP client calls. Vert.x lives in a loader that can see the agent's (the
 * system loader, a Quarkus or Spring Boot fat jar's), so the woven code links here directly. Each method
 * swallows every failure and returns what it was given: Vert.x then works as without the agent.
 */
public final class VertxHttpHook {
    /** The glue beside each copy of Vert.x, kept with its classes so it never pins an undeployed app's loader. */
    private static final Glues<VertxHttpBridge> GLUES =
            new Glues<>("io.apiwarden.clients.vertx.library.", "VertxHttpGlue", VertxHttpBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstRequest(new VertxHttpModule());

    private VertxHttpHook() {}

    /** At the return of {@code HttpClientImpl.request(RequestOptions)}: the future to return instead. */
    public static Object onRequest(Object client, Object options, Object future) {
        try {
            // A Vert.x neither 4.5 nor 5 is left alone: "managing calls" would be false; the watch names it once.
            if (!VertxHttpModule.manages(client.getClass())) {
                return future;
            }
            VertxHttpBridge glue = GLUES.of(client.getClass());
            if (glue == null) {
                return future;
            }
            IN_USE.seen();
            return glue.onRequest(client, options, future);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "vertx-http-request",
                    "a Vert.x request could not be managed; it goes as without the agent",
                    t);
            return future;
        }
    }

    /** At the start of {@code HttpClientImpl.request(RequestOptions, Handler)} (4.x only): the handler to use instead. */
    public static Object onRequestHandler(Object client, Object options, Object handler) {
        try {
            VertxHttpBridge glue = GLUES.of(client.getClass());
            if (glue == null) {
                return handler;
            }
            IN_USE.seen();
            return glue.onRequestHandler(client, options, handler);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "vertx-http-request",
                    "a Vert.x request could not be managed; it goes as without the agent",
                    t);
            return handler;
        }
    }
}
