package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.log.AgentLog;
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
    private final Warden warden;
    private final Executor completions;

    /**
     * @param completions where the app's callback is called when an agent's wait, not the client's
     *        I/O thread, moves the call on (a failed refresh hands the app the held response)
     */
    AsyncHandler(Warden warden, Executor completions) {
        this.warden = warden;
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
        AsyncExchange call = null;
        try {
            Target target = Target.of(request, scope.route);
            if (target.inScope(warden.scope())) {
                call = new AsyncExchange(warden, completions, request, body, target, scope, chain, callback);
            }
        } catch (RuntimeException e) {
            AgentLog.once(
                    AgentLog.Level.WARN,
                    "apache-async-handler",
                    "an Apache HttpClient async call could not be managed; it goes out as without the agent",
                    e);
        }
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
