package io.apiwarden.core.time;

import java.util.concurrent.ThreadFactory;

/**
 * Makes the agent's own threads: daemons, so they never hold the app's exit, named as the agent's, so the last-resort
 * watch of connections knows their calls for the agent's, and with no context class loader, not that of whichever app
 * thread came first (an undeployed web app's, say). A class, not a lambda: the agent's first threads start on a JVM's
 * first call, where a lambda's first use spins a class.
 */
public final class DaemonThreads implements ThreadFactory {
    private final String name;

    public DaemonThreads(String name) {
        this.name = name;
    }

    @Override
    public Thread newThread(Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.setContextClassLoader(null);
        return t;
    }
}
