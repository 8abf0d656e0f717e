package io.apiwarden.adapters;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds threads that wait inside the agent's code: parked (waiting, or waiting with a time-out) with
 * a frame of one of the agent's classes on their stack. A call that waits out a rate limit holding
 * no thread leaves none; a wait that held one (a sleep on a dispatcher thread, an event loop, a pool
 * worker) shows as one such thread per call.
 *
 * <p>The agent's classes are those found where the agent's engine is: the main classes in process,
 * the agent's jar in an app started with it. The tests' own classes, in the same packages, are not.
 */
public final class ParkedThreads {
    private static final String MARKER = "io/apiwarden/core/engine/CallDriver.class";
    private static final Map<String, Boolean> AGENT_CLASSES = new ConcurrentHashMap<>();

    private ParkedThreads() {
    }

    /** Each thread parked in the agent's code now: its name and the agent's frame nearest its top. */
    public static List<String> inAgentCode() {
        String agentRoot = root(ClassLoader.getSystemResource(MARKER), MARKER);
        List<String> found = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread.State state = e.getKey().getState();
            if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                continue;
            }
            for (StackTraceElement frame : e.getValue()) {
                if (isAgentClass(frame.getClassName(), agentRoot)) {
                    found.add(e.getKey().getName() + " at " + frame);
                    break;
                }
            }
        }
        return found;
    }

    private static boolean isAgentClass(String className, String agentRoot) {
        if (!className.startsWith("io.apiwarden.") || agentRoot == null) {
            return false;
        }
        return AGENT_CLASSES.computeIfAbsent(className, name -> {
            int nested = name.indexOf('$');
            String resource = (nested < 0 ? name : name.substring(0, nested)).replace('.', '/') + ".class";
            return agentRoot.equals(root(ClassLoader.getSystemResource(resource), resource));
        });
    }

    /** Where a class file was found: its URL less its own path. */
    private static String root(URL url, String resource) {
        if (url == null) {
            return null;
        }
        String s = url.toString();
        return s.endsWith(resource) ? s.substring(0, s.length() - resource.length()) : s;
    }
}
