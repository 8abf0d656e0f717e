package io.apiwarden.core.time;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
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
                0, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), new DaemonThreads(name));
    }

    @Override
    public void execute(Runnable task) {
        executor.execute(task);
    }
}
