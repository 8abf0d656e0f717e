package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
import io.apiwarden.core.Wardens;
import io.apiwarden.core.engine.EntryGuard;
import java.io.IOException;
import org.apache.hc.client5.http.classic.ExecChain;
import org.apache.hc.client5.http.classic.ExecChainHandler;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpException;

/**
 * The agent's handler in a classic client's exec chain: requests outside the API go on untouched;
 * each managed request becomes a {@link ClassicExchange}.
 */
final class ClassicHandler implements ExecChainHandler {
    /** The Warden of each request's API: one Warden in library mode, the agent's router otherwise. */
    private final Wardens wardens;

    ClassicHandler(Wardens wardens) {
        this.wardens = wardens;
    }

    @Override
    public ClassicHttpResponse execute(ClassicHttpRequest request, ExecChain.Scope scope, ExecChain chain)
            throws IOException, HttpException {
        if (request instanceof ClassicExchange.AttemptRequest) {
            // The agent's own attempt, passing the handler's second place in the chain.
            return chain.proceed(request, scope);
        }
        ClassicExchange call = EntryGuard.open("apache-classic-handler", "an Apache HttpClient call", () -> {
            Target target = Target.of(request, scope.route);
            Warden warden = target.route(wardens);
            return warden == null ? null : new ClassicExchange(warden, request, target, scope, chain);
        });
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        return call == null ? chain.proceed(request, scope) : call.run();
    }

    @Override
    public String toString() {
        return "ApiWardenExecChainHandler";
    }
}
