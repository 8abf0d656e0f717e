package io.apiwarden.agent;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiPredicate;

/**
 * A class shaped like a client the agent watches, and hooks, for {@link UnmanagedCallWeavingTest}. Public
 * throughout: the woven copies are defined in a loader of their own, outside this runtime package, and the
 * woven code finds the hooks through the system class loader.
 */
public final class UnmanagedWeavingFixtures {
    private UnmanagedWeavingFixtures() {}

    /** {@code send(url, context)} is the watched method; {@code loop} starts with a jump target, which has a frame of its own. */
    public static final class Client {
        public String send(String url, Object context) {
            long started = System.nanoTime();
            if (url.isEmpty() && started != 0) {
                return "nothing";
            }
            return "sent " + url;
        }

        public int send(String url, Object context, int times) {
            do {
                times--;
            } while (times > 0);
            return times;
        }

        public static String send(String url) {
            return "static " + url;
        }

        /** Shaped like {@code java.net.Socket.connect(address, timeout)}, the last resort's site. */
        public void connect(java.net.SocketAddress address, int timeout) {
            if (timeout < 0) {
                throw new IllegalArgumentException("timeout < 0");
            }
        }
    }

    /** Records what the woven code hands over; answers {@link #answer}. */
    public static final class RecordingHook {
        public static final List<String> CLIENTS = new CopyOnWriteArrayList<>();
        public static final List<List<Object>> CALLS = new CopyOnWriteArrayList<>();
        public static volatile boolean answer;

        public static BiPredicate<Object, Object> watch(String client) {
            CLIENTS.add(client);
            return (first, second) -> {
                CALLS.add(java.util.Arrays.asList(first, second));
                return answer;
            };
        }

        static void reset() {
            CLIENTS.clear();
            CALLS.clear();
            answer = false;
        }
    }

    public static final class ThrowingHook {
        public static final List<String> CLIENTS = new CopyOnWriteArrayList<>();

        public static BiPredicate<Object, Object> watch(String client) {
            CLIENTS.add(client);
            return (first, second) -> {
                throw new IllegalStateException("a failing watch");
            };
        }
    }
}
