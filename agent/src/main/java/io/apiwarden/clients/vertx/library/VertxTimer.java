package io.apiwarden.clients.vertx.library;

import io.apiwarden.core.time.DelayScheduler;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** Waits on Vert.x's own timers ({@code setTimer}): no event loop ever blocks, and the resend starts from one. */
final class VertxTimer implements DelayScheduler {
    private final Vertx vertx;

    VertxTimer(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        // Vert.x's timers take at least a millisecond.
        long id = vertx.setTimer(Math.max(1, delay.toMillis()), fired -> task.run());
        return () -> vertx.cancelTimer(id);
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        // Never asked by the engine (a Vert.x call only runs on its asynchronous face); a plain wait if it ever is.
        TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    }
}
