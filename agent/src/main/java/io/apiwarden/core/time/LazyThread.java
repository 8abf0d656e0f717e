package io.apiwarden.core.time;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread for work that may block briefly (a token store's reads and writes), started
 * on first use and ended after a minute without work, so an app that never refreshes never has it.
 */
public final class LazyThread implements Executor {
    /** An idle thread costs memory for nothing; a refresh comes every few minutes at most. */
    private static final long IDLE_SECONDS = 60;

    private final ThreadPoolExecutor executor;

    public LazyThread(String name) {
        executor = new ThreadPoolExecutor(
                0, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new Daemons(name));
    }

    /** Makes the thread. A class, not a lambda: it is first used on the way of a JVM's first call. */
    private static final class Daemons implements ThreadFactory {
        private final String name;

        Daemons(String name) {
            this.name = name;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            // Not the context loader of whichever app thread came first: that could be an undeployed web app's.
            t.setContextClassLoader(null);
            return t;
        }
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }
}
