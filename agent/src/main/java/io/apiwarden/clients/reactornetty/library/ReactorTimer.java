package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.core.time.DelayScheduler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

/**
 * Waits on Reactor's parallel scheduler, the timer {@code Mono.delay} uses: the resend then
 * starts from a thread made for non-blocking work, and no event loop ever waits.
 */
final class ReactorTimer implements DelayScheduler {

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        Disposable pending = Schedulers.parallel().schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        return pending::dispose;
    }

    @Override
    public void sleep(Duration delay) throws InterruptedException {
        // Not asked by the engine (a Reactor Netty call only runs on its asynchronous face); a plain wait if it ever
        // is.
        TimeUnit.NANOSECONDS.sleep(delay.toNanos());
    }
}
