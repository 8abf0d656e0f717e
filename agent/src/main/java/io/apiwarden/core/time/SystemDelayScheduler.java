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
        return new Cancel(executor().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS));
    }

    /** Cancels one timer. A class, not a lambda: a JVM's first refresh schedules one on its first call's way. */
    private static final class Cancel implements Scheduled {
        private final ScheduledFuture<?> timer;

        Cancel(ScheduledFuture<?> timer) {
            this.timer = timer;
        }

        @Override
        public void cancel() {
            timer.cancel(false);
        }
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
                    e = new ScheduledThreadPoolExecutor(1, new DaemonThreads("apiwarden-timer"));
                    // Cancelled retries must not pile up in the queue until their time comes.
                    e.setRemoveOnCancelPolicy(true);
                    executor = e;
                }
            }
        }
        return e;
    }
}
