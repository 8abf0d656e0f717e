package io.apiwarden.clients.reactornetty.agent;

import io.apiwarden.agent.ClientModule;
import java.lang.instrument.Instrumentation;

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

    @Override
    public void install(Instrumentation inst) {
        ReactorNettyInstrumentation.install(inst);
    }

    /** Reactor Netty asks the event loop to connect from a lambda of its own {@code TransportConnector}, which is on the stack. */
    @Override
    public boolean opensConnectionsIn(Class<?> type) {
        return type.getName().startsWith("reactor.netty.");
    }
}
