package io.apiwarden.core.log;

/**
 * The agent's log as one API's parts write it: with several APIs configured, each line names its API
 * ({@code [api payments] token refresh failed: ...}) and a message said once is said once for each API. With one
 * API the lines are as they always were, and naming nobody costs nothing: no string is built to say it.
 */
public final class ApiLog {
    /** The log of the only API, or of parts that serve no one API: lines name none. */
    public static final ApiLog UNNAMED = new ApiLog(null);

    /** {@code "[api <name>] "}, or null for {@link #UNNAMED}. */
    private final String prefix;

    private ApiLog(String prefix) {
        this.prefix = prefix;
    }

    /**
     * The log of the API {@code name}: its lines name it when {@code severalApis}, since only then can a reader not
     * tell which API a line is about.
     */
    public static ApiLog of(String name, boolean severalApis) {
        return severalApis ? new ApiLog("[api " + name + "] ") : UNNAMED;
    }

    public boolean enabled(AgentLog.Level level) {
        return AgentLog.enabled(level);
    }

    public void error(String message) {
        AgentLog.log(AgentLog.Level.ERROR, prefix, message, null);
    }

    public void error(String message, Throwable t) {
        AgentLog.log(AgentLog.Level.ERROR, prefix, message, t);
    }

    public void warn(String message) {
        AgentLog.log(AgentLog.Level.WARN, prefix, message, null);
    }

    public void info(String message) {
        AgentLog.log(AgentLog.Level.INFO, prefix, message, null);
    }

    public void debug(String message) {
        AgentLog.log(AgentLog.Level.DEBUG, prefix, message, null);
    }

    /** Logs {@code message} the first time {@code key} is seen for this API, and never again in this JVM. */
    public void once(AgentLog.Level level, String key, String message, Throwable t) {
        AgentLog.once(level, key, prefix, message, t);
    }

    @Override
    public String toString() {
        return prefix == null ? "ApiLog{unnamed}" : "ApiLog{" + prefix.trim() + "}";
    }
}
