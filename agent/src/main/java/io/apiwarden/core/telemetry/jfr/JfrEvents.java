package io.apiwarden.core.telemetry.jfr;

import io.apiwarden.core.log.AgentLog;
import java.time.Duration;
import jdk.jfr.FlightRecorder;

/**
 * Commits the agent's JFR events. Each method first asks whether a recording could want them at all, so that
 * with none the event classes are never loaded: {@link FlightRecorder#isInitialized()} stays false until the
 * first recording of the JVM's life starts ({@code jcmd <pid> JFR.start}, {@code -XX:StartFlightRecording} or
 * {@code new jdk.jfr.Recording()}), and it loads nothing of JFR but that one class. After that, the event's own
 * {@code isEnabled()} says whether a recording is on and wants it, before any field is set.
 */
final class JfrEvents {
    /** False once jdk.jfr turned out to be missing or failing: no event is then tried again. */
    private static volatile boolean usable = true;

    private JfrEvents() {}

    /** Whether a recording may be on: false costs a volatile read or two, and loads no event class. */
    static boolean mayRecord() {
        if (!usable) {
            return false;
        }
        try {
            return FlightRecorder.isInitialized();
        } catch (LinkageError e) {
            unusable(e);
            return false;
        }
    }

    /** jdk.jfr is missing (a trimmed runtime) or failed: the calls go on without events, said once. */
    static void unusable(Throwable e) {
        usable = false;
        AgentLog.once(AgentLog.Level.WARN, "jfr", "JFR events are off: jdk.jfr failed", e);
    }

    static void resend(String api, String method, String host, String reason, int attempt) {
        if (!mayRecord()) {
            return;
        }
        try {
            ResendEvent e = new ResendEvent();
            if (e.shouldCommit()) {
                e.api = api;
                e.method = method;
                e.host = host;
                e.reason = reason;
                e.attempt = attempt;
                e.commit();
            }
        } catch (RuntimeException | LinkageError failure) {
            unusable(failure);
        }
    }

    static void waited(String api, String method, String host, String kind, String reason, Duration waited) {
        if (!mayRecord()) {
            return;
        }
        try {
            WaitEvent e = new WaitEvent();
            if (e.shouldCommit()) {
                e.api = api;
                e.method = method;
                e.host = host;
                e.kind = kind;
                e.reason = reason;
                e.waited = waited.toNanos();
                e.commit();
            }
        } catch (RuntimeException | LinkageError failure) {
            unusable(failure);
        }
    }

    static void gateClosed(String api, String host, String source, Duration window) {
        if (!mayRecord()) {
            return;
        }
        try {
            GateClosedEvent e = new GateClosedEvent();
            if (e.shouldCommit()) {
                e.api = api;
                e.host = host;
                e.source = source;
                e.window = window.toNanos();
                e.commit();
            }
        } catch (RuntimeException | LinkageError failure) {
            unusable(failure);
        }
    }

    /** A refresh's event, begun now, or null when no recording wants it. */
    static TokenRefreshEvent refreshBegun() {
        if (!mayRecord()) {
            return null;
        }
        try {
            TokenRefreshEvent e = new TokenRefreshEvent();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            return e;
        } catch (RuntimeException | LinkageError failure) {
            unusable(failure);
            return null;
        }
    }

    static void refreshEnded(
            TokenRefreshEvent e, String api, String grant, String tokenHost, String result, boolean adopted) {
        try {
            e.end();
            if (e.shouldCommit()) {
                e.api = api;
                e.grant = grant;
                e.tokenHost = tokenHost;
                e.result = result;
                e.adopted = adopted || "adopted".equals(result);
                e.commit();
            }
        } catch (RuntimeException | LinkageError failure) {
            unusable(failure);
        }
    }
}
