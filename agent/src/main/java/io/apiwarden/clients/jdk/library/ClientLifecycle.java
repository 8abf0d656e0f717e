package io.apiwarden.clients.jdk.library;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * Calls the life-cycle methods that {@link HttpClient} gained in Java 21, found at run time
 * because the agent is compiled for Java 11. On older JVMs they do not exist and nothing is called.
 */
final class ClientLifecycle {
    private static final MethodHandle SHUTDOWN = find("shutdown", MethodType.methodType(void.class));
    private static final MethodHandle SHUTDOWN_NOW = find("shutdownNow", MethodType.methodType(void.class));
    private static final MethodHandle AWAIT =
            find("awaitTermination", MethodType.methodType(boolean.class, Duration.class));
    private static final MethodHandle IS_TERMINATED = find("isTerminated", MethodType.methodType(boolean.class));
    private static final MethodHandle CLOSE = find("close", MethodType.methodType(void.class));

    private ClientLifecycle() {}

    static void shutdown(HttpClient main, HttpClient twin) {
        run(SHUTDOWN, main, twin);
    }

    static void shutdownNow(HttpClient main, HttpClient twin) {
        run(SHUTDOWN_NOW, main, twin);
    }

    static void close(HttpClient main, HttpClient twin) {
        run(CLOSE, main, twin);
    }

    static boolean isTerminated(HttpClient main, HttpClient twin) {
        if (IS_TERMINATED == null) {
            return false;
        }
        return test(IS_TERMINATED, main) && (twin == null || test(IS_TERMINATED, twin));
    }

    static boolean awaitTermination(Duration duration, HttpClient main, HttpClient twin) throws InterruptedException {
        if (AWAIT == null) {
            return false;
        }
        try {
            boolean done = (boolean) AWAIT.invoke(main, duration);
            return twin == null ? done : done && (boolean) AWAIT.invoke(twin, duration);
        } catch (InterruptedException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static void run(MethodHandle method, HttpClient main, HttpClient twin) {
        if (method == null) {
            return;
        }
        try {
            if (twin != null) {
                method.invoke(twin);
            }
            method.invoke(main);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static boolean test(MethodHandle method, HttpClient client) {
        try {
            return (boolean) method.invoke(client);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static MethodHandle find(String name, MethodType type) {
        try {
            return MethodHandles.publicLookup().findVirtual(HttpClient.class, name, type);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
