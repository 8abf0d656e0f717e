package io.apiwarden.core.log;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The agent's log lines written while a test runs, at the level it asks for; closing puts the log back. */
public final class LogCapture implements AutoCloseable {
    private final ByteArrayOutputStream lines = new ByteArrayOutputStream();
    private final PrintStream before;
    private final String levelBefore = AgentLog.level();

    private LogCapture(String level) {
        AgentLog.setLevel(level);
        before = AgentLog.printTo(new PrintStream(lines, true, StandardCharsets.UTF_8));
    }

    /** Captures the lines of {@code level} and above. */
    public static LogCapture at(String level) {
        return new LogCapture(level);
    }

    /** The lines so far. */
    public String text() {
        return lines.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        AgentLog.printTo(before);
        AgentLog.setLevel(levelBefore);
    }
}
