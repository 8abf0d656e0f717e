package io.apiwarden.unmanaged;

import java.util.List;

/**
 * A client library the agent does not manage, as the last-resort watch names it from a class on a connect's stack:
 * the library's name and what to do about it. Libraries the agent knows by their packages get advice that fits
 * them; any other is named by the class's package.
 */
final class CallerLibrary {
    /** Known libraries, by the package prefix of their classes. */
    private static final List<CallerLibrary> KNOWN = List.of(
            new CallerLibrary(
                    "io.ktor.",
                    "Ktor",
                    "Give the Ktor client an engine the agent manages: CIO (ktor-client-cio), Java"
                            + " (ktor-client-java), OkHttp (ktor-client-okhttp) or Apache5 (ktor-client-apache5)."),
            new CallerLibrary(
                    "io.micronaut.",
                    "Micronaut's HTTP client",
                    "Micronaut 4's Netty client is managed; for an older Micronaut, use micronaut-http-client-jdk"
                            + " (Micronaut's client on java.net.http.HttpClient) or another managed client."),
            new CallerLibrary(
                    "feign.", "OpenFeign", "Give Feign the feign-hc5 or feign-okhttp client, which the agent manages."),
            new CallerLibrary(
                    "com.google.api.client.",
                    "google-http-client",
                    "Build the SDK's transport with Apache5HttpTransport (google-http-client-apache-v5), which the"
                            + " agent manages."),
            new CallerLibrary(
                    "io.vertx.",
                    "Vert.x",
                    "The agent manages the HttpClient of Vert.x 4.5 and 5 (WebClient and Quarkus on it too): move"
                            + " to one of them, or send the API's calls through another managed client."),
            new CallerLibrary(
                    "io.grpc.",
                    "gRPC",
                    "gRPC calls are not HTTP/1 calls the agent manages; give them their credentials with gRPC's own"
                            + " CallCredentials."));

    /** For a connect whose stack holds only the JDK and Netty: an event loop ran it, and the client above is not there. */
    static CallerLibrary nettyEventLoop(String threadName) {
        return new CallerLibrary(
                "io.netty.",
                "Netty (on event-loop thread '" + threadName + "', which does not show the client above it)",
                "Netty clients the agent does not manage include gRPC's and Vert.x's before 4.5; Reactor Netty's,"
                        + " Vert.x 4.5's and 5's and Micronaut 4's are managed.",
                "Netty");
    }

    /** For a connect whose stack holds only the JDK: named by its thread, the only trace of who asked. */
    static CallerLibrary onThread(String threadName) {
        return new CallerLibrary(
                "",
                "a client on thread '" + threadName + "' (its stack holds only the JDK's classes)",
                "Look for the client that runs on that thread.",
                "thread " + threadName);
    }

    private final String packagePrefix;
    private final String name;
    private final String advice;
    /** What the JVM warns once about: the library, whatever a thread's name in {@link #name} says. */
    private final String key;

    private CallerLibrary(String packagePrefix, String name, String advice) {
        this(packagePrefix, name, advice, name);
    }

    private CallerLibrary(String packagePrefix, String name, String advice, String key) {
        this.packagePrefix = packagePrefix;
        this.name = name;
        this.advice = advice;
        this.key = key;
    }

    /**
     * The library of {@code className}: a known one, or else one named by the class's package, whose advice is
     * to move to {@code managedClients}.
     */
    static CallerLibrary of(String className, String managedClients) {
        for (CallerLibrary known : KNOWN) {
            if (className.startsWith(known.packagePrefix)) {
                return known;
            }
        }
        int dot = className.lastIndexOf('.');
        String pkg = dot < 0 ? "the unnamed package" : className.substring(0, dot);
        return new CallerLibrary(pkg, pkg, "Send the calls through a managed client: " + managedClients + ".");
    }

    /** A client the agent manages that is switched off. */
    static CallerLibrary switchedOff(String displayName, String switchKey) {
        return new CallerLibrary("", displayName, "Switch its management back on: " + switchKey + "=true.");
    }

    String name() {
        return name;
    }

    String advice() {
        return advice;
    }

    String key() {
        return key;
    }
}
