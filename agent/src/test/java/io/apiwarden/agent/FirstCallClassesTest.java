package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The classes loaded ahead of the first call are the agent's and exist: a renamed class fails here, not silently. */
class FirstCallClassesTest {

    @Test
    void everyNamedClassExists() throws Exception {
        ClassLoader loader = FirstCallClasses.class.getClassLoader();
        for (String name : FirstCallClasses.names(true)) {
            assertThat(Class.forName(name, false, loader)).as(name).isNotNull();
        }
    }

    @Test
    void theWatchsClassesOnlyWhenItIsOn() {
        assertThat(FirstCallClasses.names(false))
                .hasSize(FirstCallClasses.AGENT.size() + FirstCallClasses.ASM.size())
                .noneMatch(name -> name.startsWith("io.apiwarden.unmanaged."));
        assertThat(FirstCallClasses.names(true)).contains("io.apiwarden.unmanaged.ConnectWatch");
    }
}
