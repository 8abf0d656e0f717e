package io.apiwarden.clients.reactornetty.agent;

import io.apiwarden.agent.AgentRuntime;
import io.apiwarden.agent.ClientsInUse;
import io.apiwarden.agent.Glues;
import io.apiwarden.clients.reactornetty.bridge.ReactorNettyBridge;
import io.apiwarden.core.log.AgentLog;
import java.util.concurrent.atomic.AtomicBoolean;

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

    /** Seen when the app builds a client ({@link #onBuild}), or on its first request when the build was missed. */
    private static final ClientsInUse IN_USE = ClientsInUse.onFirstClient(new ReactorNettyModule());

    /** Per copy of Reactor Netty (its {@code HttpClient} class): whether getting ready for its first request began. */
    private static final ClassValue<AtomicBoolean> PREPARING = new ClassValue<>() {
        @Override
        protected AtomicBoolean computeValue(Class<?> type) {
            return new AtomicBoolean();
        }
    };

    private ReactorNettyHook() {}

    /**
     * At the start of {@code HttpClient.create()} and its other factories: the app builds a client, its first request
     * comes later. Gets the agent ready for that request on a thread of its own, never the app's: the glue beside
     * this copy of Reactor Netty, every API's runtime (token, telemetry), the classes a managed request loads. Without
     * this the first request paid for all of it. A request that comes while it is under way waits for the part it
     * needs (as it did before), no longer.
     */
    public static void onBuild(Class<?> httpClient) {
        try {
            if (AgentRuntime.router() == null || !PREPARING.get(httpClient).compareAndSet(false, true)) {
                return;
            }
            Thread prepare = new Thread(() -> prepare(httpClient), "apiwarden-reactor-netty-prepare");
            prepare.setDaemon(true);
            // Not the app's loader: the thread must not hold a web app's loader while it lives.
            prepare.setContextClassLoader(ClassLoader.getSystemClassLoader());
            prepare.start();
        } catch (Throwable t) {
            notReady(t);
        }
    }

    private static void prepare(Class<?> httpClient) {
        try {
            ReactorNettyBridge glue = GLUES.of(httpClient);
            if (glue != null) {
                glue.prepare();
                IN_USE.seen();
            }
        } catch (Throwable t) {
            notReady(t);
        }
    }

    /** At the return of {@code HttpClientConnect.connect()}: the publisher to return instead. */
    public static Object onConnect(Object client, Object connect) {
        try {
            ReactorNettyBridge glue = GLUES.of(client.getClass());
            if (glue == null) {
                return connect;
            }
            // Once the client's build got the agent ready (onBuild), only a flag; else this request does it.
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

    /** Nothing is lost: the first request gets the agent ready itself, as before. */
    private static void notReady(Throwable t) {
        AgentLog.once(
                AgentLog.Level.WARN,
                "reactor-netty-build",
                "the agent could not get ready for Reactor Netty's first request; that request does it",
                t);
    }
}
