package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.clients.jetty.agent.JettyModule;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The unmanaged-client watch and Jetty: 12 is managed while its module is on, 9 to 11 are always watched. */
class JettyWatchTest {
    private static final String JETTY_12 = "org/eclipse/jetty/client/transport/HttpRequest";
    private static final String JETTY_9_TO_11 = "org/eclipse/jetty/client/HttpRequest";

    @Test
    void jetty12IsWatchedOnlyWhileItsModuleIsOff() {
        assertThat(UnmanagedClientInstrumentation.sites(new JettyModule().managedClassesTheWatchKnows()))
                .extracting(s -> s.className)
                .as("module on: Jetty 12 is managed, the older lines still warned about")
                .doesNotContain(JETTY_12)
                .contains(JETTY_9_TO_11);
        assertThat(UnmanagedClientInstrumentation.sites(Set.of()))
                .extracting(s -> s.className)
                .as("module off: both warned about")
                .contains(JETTY_12, JETTY_9_TO_11);
    }
}
