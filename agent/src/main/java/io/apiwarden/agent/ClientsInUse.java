package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;

/**
 * Names each managed client library in the log when the app builds its first client of it, so that the
 * log names only the clients an app uses: at start-up the agent cannot know which those will be, and
 * looking for their classes would cost start-up time and miss those in a fat jar's or a container's
 * loaders. A client is built rarely, and after the first each costs the read of one flag.
 */
final class ClientsInUse {
    private static volatile String api = "the API";
    private static volatile boolean jdkHttpClient;
    private static volatile boolean okHttp;
    private static volatile boolean apacheHttpClient;
    private static volatile boolean reactorNetty;

    private ClientsInUse() {
    }

    static void configure(String apiBase) {
        api = apiBase;
    }

    /** The app built a {@code java.net.http.HttpClient} that the agent manages. */
    static void jdkHttpClientBuilt() {
        if (!jdkHttpClient) {
            jdkHttpClient = true;
            managing("java.net.http.HttpClient");
        }
    }

    /** The app built an {@code OkHttpClient} that the agent manages. */
    static void okHttpBuilt() {
        if (!okHttp) {
            okHttp = true;
            managing("OkHttp");
        }
    }

    /** The app built an Apache HttpClient 5 client (classic or async) that the agent manages. */
    static void apacheHttpClientBuilt() {
        if (!apacheHttpClient) {
            apacheHttpClient = true;
            managing("Apache HttpClient 5");
        }
    }

    /** The app made its first request through a Reactor Netty {@code HttpClient}, which the agent manages. */
    static void reactorNettyUsed() {
        if (!reactorNetty) {
            reactorNetty = true;
            AgentLog.info("managing calls to " + api + " through Reactor Netty (the app made its first request)");
        }
    }

    private static void managing(String client) {
        AgentLog.info("managing calls to " + api + " through " + client + " (the app built its first client)");
    }
}
