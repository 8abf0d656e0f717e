package io.apiwarden.core.log;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's own log, on standard error with an {@code [apiwarden]} prefix.
 *
 * <p>Deliberately not java.util.logging or any framework: touching the app's logging set-up from
 * {@code premain} can break apps that configure it later (a custom {@code LogManager} must be
 * the first). Callers never pass a token or secret into a message; as a last line of defence,
 * every line is cut to one line and every {@link KnownSecrets known secret} is cut out of it.
 */
public final class AgentLog {
    /** Severity, most severe first. */
    public enum Level {
        OFF,
        ERROR,
        WARN,
        INFO,
        DEBUG
    }

    private static volatile Level threshold = Level.INFO;
    private static volatile PrintStream out = System.err;
    /** Keys of messages that are printed once per JVM: repeated failures must not flood the app's log. */
    private static final Set<String> ONCE = ConcurrentHashMap.newKeySet();

    private AgentLog() {}

    /** Sets the level from {@code off|error|warn|info|debug}; anything else leaves it unchanged and returns false. */
    public static boolean setLevel(String name) {
        if (name == null) {
            return true;
        }
        try {
            threshold = Level.valueOf(name.trim().toUpperCase(Locale.ROOT));
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The level now, as {@link #setLevel} takes it: for a test that puts it back. */
    static String level() {
        return threshold.name();
    }

    /** Sends the lines to {@code stream} rather than standard error, returning where they went before: for tests. */
    static PrintStream printTo(PrintStream stream) {
        PrintStream before = out;
        out = stream;
        return before;
    }

    public static boolean enabled(Level level) {
        Level t = threshold;
        return t != Level.OFF && level.ordinal() <= t.ordinal();
    }

    public static void error(String message) {
        log(Level.ERROR, message, null);
    }

    public static void error(String message, Throwable t) {
        log(Level.ERROR, message, t);
    }

    public static void warn(String message) {
        log(Level.WARN, message, null);
    }

    public static void info(String message) {
        log(Level.INFO, message, null);
    }

    public static void debug(String message) {
        log(Level.DEBUG, message, null);
    }

    /** Logs {@code message} the first time {@code key} is seen, and never again in this JVM. */
    public static void once(Level level, String key, String message, Throwable t) {
        once(level, key, null, message, t);
    }

    /** As {@link #once(Level, String, String, Throwable)}, the line starting with {@code api} when not null. */
    static void once(Level level, String key, String api, String message, Throwable t) {
        if (enabled(level) && ONCE.add(api == null ? key : api + key)) {
            log(level, api, message, t);
        }
    }

    private static void log(Level level, String message, Throwable t) {
        log(level, null, message, t);
    }

    /** Prints the line; {@code api}, when not null, names the API it is about ({@link ApiLog}). */
    static void log(Level level, String api, String message, Throwable t) {
        if (!enabled(level)) {
            return;
        }
        out.println(line(level, api, message, t));
    }

    /** The line printed for a message: one line, with every known secret cut out. */
    static String line(Level level, String message, Throwable t) {
        return line(level, null, message, t);
    }

    private static String line(Level level, String api, String message, Throwable t) {
        StringBuilder line = LogTime.append(new StringBuilder(96), Instant.now())
                .append(" [apiwarden] ")
                .append(level)
                .append(' ');
        if (api != null) {
            line.append(api);
        }
        line.append(oneLine(KnownSecrets.scrub(message)));
        if (t != null) {
            // Only the type and where it came from: exception messages of other libraries may quote
            // request data, and the agent does not vouch for them.
            line.append(" (").append(t.getClass().getName());
            StackTraceElement[] trace = t.getStackTrace();
            if (trace.length > 0) {
                line.append(" at ").append(trace[0]);
            }
            line.append(')');
        }
        return line.toString();
    }

    /**
     * A message as one line: a message may quote text from the network, and a line break in it
     * would let that text forge a log line of its own.
     */
    private static String oneLine(String message) {
        for (int i = 0; i < message.length(); i++) {
            if (isLineBreaking(message.charAt(i))) {
                StringBuilder b = new StringBuilder(message.length());
                for (int j = 0; j < message.length(); j++) {
                    char c = message.charAt(j);
                    b.append(isLineBreaking(c) ? ' ' : c);
                }
                return b.toString();
            }
        }
        return message;
    }

    /** Control characters, line and paragraph separators, and the other characters that do not show. */
    private static boolean isLineBreaking(char c) {
        return ServerText.isHidden(c);
    }
}
