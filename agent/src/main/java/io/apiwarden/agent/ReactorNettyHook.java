package io.apiwarden.agent;

import io.apiwarden.bridge.ReactorNettyBridge;
import io.apiwarden.core.Warden;
import io.apiwarden.core.log.AgentLog;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What the code woven into Reactor Netty's HTTP client calls. Reactor Netty lives in a loader that
 * can see the agent's (the system loader, a Spring Boot fat jar's), so the woven code links here
 * directly. Each method swallows every failure and returns what it was given: Reactor Netty then
 * works as without the agent.
 */
public final class ReactorNettyHook {
    static final String GLUE_PACKAGE = "io.apiwarden.reactornetty.";
    private static final String GLUE_CLASS = GLUE_PACKAGE + "ReactorNettyGlue";
    /** The glue of each Reactor Netty class the woven code runs in; kept with the class, so it never pins an undeployed app's loader. */
    private static final ClassValue<ReactorNettyBridge> BY_CLASS = new ClassValue<>() {
        @Override
        protected ReactorNettyBridge computeValue(Class<?> type) {
            return glueOf(type.getClassLoader());
        }
    };
    /** One glue per loader, shared by that loader's Reactor Netty classes; held weakly on both sides for the same reason. */
    private static final Map<ClassLoader, WeakReference<ReactorNettyBridge>> BY_LOADER = new WeakHashMap<>();

    private ReactorNettyHook() {
    }

    /** At the return of {@code HttpClientConnect.connect()}: the publisher to return instead. */
    public static Object onConnect(Object client, Object connect) {
        try {
            ReactorNettyBridge glue = glueFor(client.getClass());
            if (glue == null) {
                return connect;
            }
            // A request is the first sign of a Reactor Netty client: it has no build step of its own.
            ClientsInUse.reactorNettyUsed();
            return glue.onConnect(client, connect);
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "reactor-netty-connect", "a Reactor Netty request could not be managed; it goes as without the agent", t);
            return connect;
        }
    }

    /** At the return of {@code HttpClientConfig.defaultConnectionObserver()}: the observer to return instead. */
    public static Object observer(Object config, Object observer) {
        try {
            ReactorNettyBridge glue = glueFor(config.getClass());
            return glue == null ? observer : glue.observer(observer);
        } catch (Throwable t) {
            AgentLog.once(AgentLog.Level.WARN, "reactor-netty-observer", "a Reactor Netty client could not be managed; it works without the agent", t);
            return observer;
        }
    }

    private static ReactorNettyBridge glueFor(Class<?> nettyClass) {
        return AgentRuntime.warden() == null ? null : BY_CLASS.get(nettyClass);
    }

    private static ReactorNettyBridge glueOf(ClassLoader loader) {
        synchronized (BY_LOADER) {
            WeakReference<ReactorNettyBridge> ref = BY_LOADER.get(loader);
            ReactorNettyBridge glue = ref == null ? null : ref.get();
            if (glue == null) {
                try {
                    ClassLoader glueLoader = new GlueClassLoader(loader, GLUE_PACKAGE, ReactorNettyHook.class.getClassLoader());
                    glue = (ReactorNettyBridge) glueLoader.loadClass(GLUE_CLASS).getConstructor(Warden.class)
                            .newInstance(AgentRuntime.warden());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("the Reactor Netty glue could not be defined", e);
                }
                BY_LOADER.put(loader, new WeakReference<>(glue));
            }
            return glue;
        }
    }
}
