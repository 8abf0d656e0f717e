package io.apiwarden.core.time;

import java.time.Duration;

/** Waits, both ways the agent needs them: blocking the caller ({@code send}) or scheduling ({@code sendAsync}). */
public interface DelayScheduler {

    /** A scheduled task that may still be cancelled. */
    interface Scheduled {
        /** Stops the task from running if it has not started. */
        void cancel();
    }

    /** Runs {@code task} after {@code delay} without holding any thread while it waits. */
    Scheduled schedule(Duration delay, Runnable task);

    /** Blocks the calling thread for {@code delay}; interruptible. */
    void sleep(Duration delay) throws InterruptedException;
}
