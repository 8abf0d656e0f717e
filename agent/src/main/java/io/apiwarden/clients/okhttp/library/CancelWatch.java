package io.apiwarden.clients.okhttp.library;

import io.apiwarden.core.engine.BlockingWait;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;

/**
 * The {@code execute} calls waiting on the caller's thread (a token, the rate-limit gate, a
 * back-off), so that {@code Call.cancel()} from another thread, which the agent passes on, wakes
 * them at once. OkHttp's own {@code callTimeout} cancels the call too.
 */
final class CancelWatch {
    private final Map<Call, CompletableFuture<Void>> waiting = new ConcurrentHashMap<>();

    /** The app cancelled {@code call}: a wait of it ends now. */
    void cancelled(Call call) {
        CompletableFuture<Void> wake = waiting.get(call);
        if (wake != null) {
            wake.complete(null);
        }
    }

    /**
     * How one wait of {@code call} hears of a cancel: it then fails as OkHttp fails a cancelled
     * call when {@code failsWhenCancelled}, else it ends without a value.
     */
    BlockingWait.Cancel of(Call call, boolean failsWhenCancelled) {
        CompletableFuture<Void> wake = new CompletableFuture<>();
        return new BlockingWait.Cancel() {
            @Override
            public CompletableFuture<?> listen() {
                waiting.put(call, wake);
                if (call.isCanceled()) {
                    wake.complete(null);
                }
                return wake;
            }

            @Override
            public void stopListening() {
                waiting.remove(call);
            }

            @Override
            public void throwIfCancelled() throws IOException {
                if (failsWhenCancelled && call.isCanceled()) {
                    throw new IOException("Canceled");
                }
            }
        };
    }
}
