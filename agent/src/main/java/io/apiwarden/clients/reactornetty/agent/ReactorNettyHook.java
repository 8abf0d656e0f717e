package io.apiwarden.clients.reactornetty.agent;

import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.reactornetty.bridge.ReactorNettyBridge;
import io.apiwarden.core.log.AgentLog;

/**
 * What the code woven into Reactor Netty's HTTP client calls. Reactor Netty lives in a loader that
 * can see the agent's (the system loader, a Spring Boot fat jar's), so the woven code links here
 * directly. Each method swallows every failure and returns what it was given: Reactor Netty then
 * works as without the agent.
 */
public final class ReactorNettyHook {
    /** The glue beside each copy of Reactor Netty, kept with its classes so it never pins an undeployed app's loader. */
    private static final Glues<ReactorNettyBridge> GLUES =
            new Glues<>("io.apiwarden.clients.reactornetty.library.", "ReactorNettyGlue", ReactorNettyBridge.class);

    private static final ClientsInUse IN_USE = ClientsInUse.onFirstRequest(new ReactorNettyModule());

    private ReactorNettyHook() {}

    /** At the return of {@code HttpClientConnect.connect()}: the publisher to return instead. */
    public static Object onConnect(Object client, Object connect) {
        try {
            ReactorNettyBridge glue = GLUES.of(client.getClass());
            if (glue == null) {
                return connect;
            }
            // A request is the first sign of a Reactor Netty client: it has no build step of its own.
            IN_USE.seen();
            return glue.onConnect(client, connect);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "reactor-netty-connect",
                    "a Reactor Netty request could not be managed; it goes as without the agent",
                    t);
            return connect;
        }
    }

    /** At the return of {@code HttpClientConfig.defaultConnectionObserver()}: the observer to return instead. */
    public static Object observer(Object config, Object observer) {
        try {
            ReactorNettyBridge glue = GLUES.of(config.getClass());
            return glue == null ? observer : glue.observer(observer);
        } catch (Throwable t) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "reactor-netty-observer",
                    "a Reactor Netty client could not be managed; it works without the agent",
                    t);
            return observer;
        }
    }
}
