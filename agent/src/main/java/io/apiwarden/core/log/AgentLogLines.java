package io.apiwarden.core.log;

import java.util.function.Consumer;

/**
 * {@link AgentLog}'s warning and information lines as consumers of their text: classes, not {@code AgentLog::warn},
 * since each method reference run at start-up costs a class spun at run time (docs/benchmarks.md).
 */
public final class AgentLogLines implements Consumer<String> {
    public static final Consumer<String> WARN = new AgentLogLines(true);
    public static final Consumer<String> INFO = new AgentLogLines(false);

    private final boolean warning;

    private AgentLogLines(boolean warning) {
        this.warning = warning;
    }

    @Override
    public void accept(String line) {
        if (warning) {
            AgentLog.warn(line);
        } else {
            AgentLog.info(line);
        }
    }
}
