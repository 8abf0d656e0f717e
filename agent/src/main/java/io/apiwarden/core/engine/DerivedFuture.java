package io.apiwarden.core.engine;

import java.lang.ref.WeakReference;
import java.util.concurrent.CompletableFuture;

/**
 * A future made from a call's future ({@code thenApply}, {@code copy} and the like; {@link AsyncRun#newIncompleteFuture}):
 * cancelling it with {@code cancel(true)} while it is pending cancels the call too, as it does with the JDK client's
 * own futures from JDK 16 on ({@code sendAsync(...).thenApply(HttpResponse::body).cancel(true)} aborts the request).
 * Futures made from it do the same. The call is held weakly, as the JDK holds its exchange: an app that keeps such
 * a future keeps no call with it.
 *
 * @param <U> the value type
 */
final class DerivedFuture<U> extends CompletableFuture<U> {
    private final WeakReference<CompletableFuture<?>> call;

    DerivedFuture(WeakReference<CompletableFuture<?>> call) {
        this.call = call;
    }

    @Override
    public <V> CompletableFuture<V> newIncompleteFuture() {
        return new DerivedFuture<>(call);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        // Only a pending future passes it on: CompletableFuture's cancel also answers true once it is cancelled.
        boolean pending = !isDone();
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (pending && cancelled && mayInterruptIfRunning) {
            CompletableFuture<?> c = call.get();
            if (c != null) {
                c.cancel(true);
            }
        }
        return cancelled;
    }
}
