package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import java.util.concurrent.Executor;
import org.apache.hc.client5.http.async.AsyncExecCallback;
import org.apache.hc.client5.http.async.AsyncExecChain;
import org.apache.hc.client5.http.async.AsyncExecChainHandler;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;

/**
 * The agent's handler in an async client's exec chain: requests outside the API go on untouched;
 * each managed request becomes an {@link AsyncExchange}.
 */
final class AsyncHandler implements AsyncExecChainHandler {
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    private final Executor completions;

    /**
     * @param completions where the app's callback is called when an agent's wait, not the client's
     *        I/O thread, moves the call on (a failed refresh hands the app the held response)
     */
    AsyncHandler(Wardens wardens, Executor completions) {
        this.wardens = wardens;
        this.completions = completions;
    }

    @Override
    public void execute(
            HttpRequest request,
            AsyncEntityProducer body,
            AsyncExecChain.Scope scope,
            AsyncExecChain chain,
            AsyncExecCallback callback)
            throws HttpException, IOException {
        AsyncExchange call = EntryGuard.open("apache-async-handler", "an Apache HttpClient async call", () -> {
            Target target = Target.of(request, scope.route);
            Warden warden = target.route(wardens);
            return warden == null
                    ? null
                    : new AsyncExchange(warden, completions, request, body, target, scope, chain, callback);
        });
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        if (call == null) {
            chain.proceed(request, body, scope, callback);
        } else {
            call.start();
        }
    }

    @Override
    public String toString() {
        return "ApiWardenAsyncExecChainHandler";
    }
}
