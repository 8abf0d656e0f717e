package io.apiwarden.core.time;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Real time: one daemon thread that only fires timers (the work it starts is asynchronous),
 * created on first use so an app that never waits never has it.
 */
public final class SystemDelayScheduler implements DelayScheduler {
    private volatile ScheduledThreadPoolExecutor executor;

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        ScheduledFuture<?> f = executor().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    }

    private ScheduledThreadPoolExecutor executor() {
        ScheduledThreadPoolExecutor e = executor;
        if (e == null) {
            synchronized (this) {
                e = executor;
                if (e == null) {
                    e = new ScheduledThreadPoolExecutor(1, r -> {
                        Thread t = new Thread(r, "apiwarden-timer");
                        t.setDaemon(true);
                        // Not the context loader of whichever app thread came first: that could be an undeployed web
                        // app's.
                        t.setContextClassLoader(null);
                        return t;
                    });
                    // Cancelled retries must not pile up in the queue until their time comes.
                    e.setRemoveOnCancelPolicy(true);
                    executor = e;
                }
            }
        }
        return e;
    }
}
