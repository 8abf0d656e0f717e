package io.apiwarden.adapters;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds threads that the agent's code parked: waiting (or waiting with a time-out) where the frame
 * nearest the top that is not the JDK's is one of the agent's classes. A call that waits out a rate
 * limit holding no thread leaves none; a wait that held one (a sleep on a dispatcher thread, an
 * event loop, a pool worker) shows as one such thread per call. A thread parked by the client's own
 * code (a lock of its pool) while the agent's code is further down its stack is the client's doing.
 *
 * <p>The agent's classes are those found where the agent's engine is: the main classes in process,
 * the agent's jar in an app started with it. The tests' own classes, in the same packages, are not.
 */
public final class ParkedThreads {
    private static final String MARKER = "io/apiwarden/core/engine/CallDriver.class";
    /** Where the agent's jar puts the libraries it bundles (agent/pom.xml, the shade plugin's relocations). */
    private static final String SHADED = "io.apiwarden.shaded.";

    private static final Map<String, Boolean> AGENT_CLASSES = new ConcurrentHashMap<>();

    private ParkedThreads() {}

    /** Each thread the agent's code parked, now: its name and the frame that parked it. */
    public static List<String> inAgentCode() {
        String agentRoot = root(ClassLoader.getSystemResource(MARKER), MARKER);
        List<String> found = new ArrayList<>();
        for (Map.Entry<Thread, StackTraceElement[]> e :
                Thread.getAllStackTraces().entrySet()) {
            Thread.State state = e.getKey().getState();
            if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
                continue;
            }
            for (StackTraceElement frame : e.getValue()) {
                if (isJdkClass(frame.getClassName())) {
                    continue;
                }
                // What parked the thread: the agent's code, or the client's or the app's (a lock of theirs, a read).
                if (isAgentClass(frame.getClassName(), agentRoot)) {
                    found.add(e.getKey().getName() + " at " + frame);
                }
                break;
            }
        }
        return found;
    }

    /**
     * Watches for threads the agent's code keeps parked, sample after sample: a wait held on a thread
     * lasts as long as the wait, where a thread the agent's code parks for a moment (a lock of the
     * JDK's timer, a class being initialised) is gone by the next sample or the one after.
     */
    public static final class Watch {
        /** Each thread and frame parked in the last sample, to when it was first seen so, without a break. */
        private Map<String, Long> since = new java.util.HashMap<>();

        private final java.util.Set<String> held = new java.util.TreeSet<>();
        private final long heldNanos;
        private int samples;

        /** Counts as held a thread parked at the same frame in every sample over {@code held}. */
        public Watch(java.time.Duration held) {
            this.heldNanos = held.toNanos();
        }

        public void sample() {
            long now = System.nanoTime();
            Map<String, Long> next = new java.util.HashMap<>();
            for (String parked : inAgentCode()) {
                long first = since.getOrDefault(parked, now);
                next.put(parked, first);
                if (now - first >= heldNanos) {
                    held.add(parked);
                }
            }
            since = next;
            samples++;
        }

        public int samples() {
            return samples;
        }

        /** The threads (and frames) found held so far. */
        public java.util.Set<String> held() {
            return held;
        }
    }

    private static boolean isJdkClass(String className) {
        return className.startsWith("java.")
                || className.startsWith("jdk.")
                || className.startsWith("sun.")
                || className.startsWith("com.sun.");
    }

    private static boolean isAgentClass(String className, String agentRoot) {
        // The libraries the agent's jar bundles run threads of their own (the span exporter's worker waits
        // for spans all along): their waits are not a call's.
        if (!className.startsWith("io.apiwarden.") || className.startsWith(SHADED) || agentRoot == null) {
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
