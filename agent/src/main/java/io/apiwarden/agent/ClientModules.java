package io.apiwarden.agent;

import io.apiwarden.clients.apache4.agent.Apache4Module;
import io.apiwarden.clients.apache5.agent.Apache5Module;
import io.apiwarden.clients.huc.agent.HttpUrlConnectionModule;
import io.apiwarden.clients.jdk.agent.JdkModule;
import io.apiwarden.clients.jetty.agent.JettyModule;
import io.apiwarden.clients.ktor.agent.KtorModule;
import io.apiwarden.clients.micronaut.agent.MicronautModule;
import io.apiwarden.clients.okhttp.agent.OkHttpModule;
import io.apiwarden.clients.reactornetty.agent.ReactorNettyModule;
import io.apiwarden.clients.vertx.agent.VertxHttpModule;
import java.util.ArrayList;
import java.util.List;

/** Every client the agent manages: adding a client is adding its folder and one line here. */
public final class ClientModules {
    /** In the order they are installed, and the log, the help and the warnings name them. */
    public static final List<ClientModule> ALL = List.of(
            new JdkModule(),
            new OkHttpModule(),
            new ReactorNettyModule(),
            new Apache5Module(),
            new Apache4Module(),
            new HttpUrlConnectionModule(),
            new VertxHttpModule(),
            new JettyModule(),
            new MicronautModule(),
            new KtorModule());

    private ClientModules() {}

    /** The names of their switches, {@code apiwarden.instrumentation.<name>.enabled}. */
    public static List<String> names() {
        // A loop, not a stream: premain asks, and a stream's first use costs a few milliseconds of start-up.
        List<String> names = new ArrayList<>();
        for (ClientModule module : ALL) {
            names.add(module.name());
        }
        return names;
    }

    /** {@code texts} as a list in prose: "a, b or c". */
    public static String either(List<String> texts) {
        if (texts.size() < 2) {
            return String.join("", texts);
        }
        return String.join(", ", texts.subList(0, texts.size() - 1)) + " or " + texts.get(texts.size() - 1);
    }
}
