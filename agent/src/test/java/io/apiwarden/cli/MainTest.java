package io.apiwarden.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiwarden.core.config.ConfigProperty;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {
            Integer.toString(code), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)
        };
    }

    @Test
    void helpListsEveryPropertyWithItsVariableAndDefault() {
        String[] r = run();

        assertThat(r[0]).isEqualTo("0");
        for (ConfigProperty p : ConfigProperty.values()) {
            assertThat(r[1]).contains(p.key() + "  (" + p.envName() + ")").contains(p.description());
        }
        assertThat(r[1]).contains("-javaagent:apiwarden-agent.jar", "doctor", "attach <pid>");
    }

    @Test
    void unknownCommandsAndBadAttachArgumentsSayWhatToDo() {
        assertThat(run("frobnicate"))
                .containsExactly("2", "", "unknown command 'frobnicate': use help, doctor, attach <pid> or version\n");
        assertThat(run("attach")[2]).contains("usage: java -jar apiwarden-agent.jar attach <pid>");
        assertThat(run("attach", "123", "nonsense")[2]).contains("'nonsense' is not property=value");
    }
}
