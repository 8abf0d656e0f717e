package io.apiwarden.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The classes loaded ahead of the first call are the agent's and exist: a renamed class fails here, not silently. */
class FirstCallClassesTest {

    @Test
    void everyNamedClassExists() throws Exception {
        ClassLoader loader = FirstCallClasses.class.getClassLoader();
        for (String name : FirstCallClasses.names(true, true)) {
            assertThat(Class.forName(name, false, loader)).as(name).isNotNull();
        }
    }

    @Test
    void theWatchsAndTheTelemetrysClassesOnlyWhenTheyAreOn() {
        assertThat(FirstCallClasses.names(false, false))
                .hasSize(FirstCallClasses.AGENT.size() + FirstCallClasses.JSON.size() + FirstCallClasses.ASM.size())
                .noneMatch(name -> name.startsWith("io.apiwarden.unmanaged."))
                .noneMatch(name -> name.contains("opentelemetry"));
        assertThat(FirstCallClasses.names(true, false)).contains("io.apiwarden.unmanaged.ConnectWatch");
        assertThat(FirstCallClasses.names(false, true))
                .contains("io.apiwarden.telemetry.AppTraceContext", "io.opentelemetry.api.trace.SpanContext")
                .doesNotContain("io.opentelemetry.context.ContextStorage");
    }
}
