package io.apiwarden.agent;

import io.apiwarden.core.log.AgentLog;

/**
 * Names a managed client library in the log when the app first uses it, so that the log names only the
 * clients an app uses: at start-up the agent cannot know which those will be, and looking for their
 * classes would cost start-up time and miss those in a fat jar's or a container's loaders. A client is
 * built rarely, and after the first each costs the read of one flag. One per client, kept by its hook.
 */
public final class ClientsInUse {
    private static volatile String api = "the API";

    private final String client;
    private final String firstUse;
    private volatile boolean seen;

    private ClientsInUse(String client, String firstUse) {
        this.client = client;
        this.firstUse = firstUse;
    }

    static void configure(String apiBase) {
        api = apiBase;
    }

    /** For a client the agent manages from the moment the app builds it. */
    public static ClientsInUse onFirstClient(ClientModule module) {
        return new ClientsInUse(module.displayName(), "the app built its first client");
    }

    /** For a client the agent manages from the app's first request through it. */
    public static ClientsInUse onFirstRequest(ClientModule module) {
        return new ClientsInUse(module.displayName(), "the app made its first request");
    }

    /** The app built a client (or made a request) that the agent manages. */
    public void seen() {
        if (!seen) {
            seen = true;
            // The line names the API, which the agent's start sets.
            AgentStart.await();
            AgentLog.info("managing calls to " + api + " through " + client + " (" + firstUse + ")");
            AgentRuntime.startApis();
        }
    }
}
