package io.apiwarden.clients.reactornetty.agent;

import io.apiwarden.agent.ClientModule;
import io.apiwarden.agent.HookTransformer;
import java.util.Map;
import java.util.Set;

/** Reactor Netty's {@code HttpClient} (Spring {@code WebClient}'s default): its requests go through the managed connect. */
public final class ReactorNettyModule implements ClientModule {
    @Override
    public String name() {
        return "reactor-netty";
    }

    @Override
    public String displayName() {
        return "Reactor Netty";
    }

    /** Names only (constants javac copies here): the weaving's own classes load with the first of them. */
    @Override
    public Set<String> wovenClasses() {
        return Set.of(
                ReactorNettyInstrumentation.CONNECT,
                ReactorNettyInstrumentation.CLIENT,
                ReactorNettyInstrumentation.CONFIG);
    }

    @Override
    public Map<String, HookTransformer.Weaving> weavings() {
        return ReactorNettyInstrumentation.weavings();
    }

    /** Reactor Netty asks the event loop to connect from a lambda of its own {@code TransportConnector}, which is on the stack. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("reactor.netty.");
    }
}
