package io.apiwarden.adapters.faces;

import io.apiwarden.adapters.ClientFace.Reply;
import io.apiwarden.adapters.ClientFace.Running;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** A blocking call made on a thread of its own, as an app thread makes it, so that the caller can cancel it meanwhile. */
final class Blocking {
    private static final AtomicInteger THREADS = new AtomicInteger();

    private Blocking() {}

    /**
     * Runs {@code call} on a new thread.
     *
     * @param cancel what the app does to cancel the call, given the thread blocked in it
     */
    static Running start(Callable<Reply> call, Consumer<Thread> cancel) {
        CompletableFuture<Reply> outcome = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try {
                        outcome.complete(call.call());
                    } catch (Throwable e) {
                        outcome.completeExceptionally(e);
                    }
                },
                "app-call-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        t.start();
        return new Running() {
            @Override
            public CompletableFuture<Reply> outcome() {
                return outcome;
            }

            @Override
            public void cancel() {
                cancel.accept(t);
            }
        };
    }
}
