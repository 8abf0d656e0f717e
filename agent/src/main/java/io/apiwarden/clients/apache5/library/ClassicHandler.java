package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.Warden;
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
    private final Warden warden;

    ClassicHandler(Warden warden) {
        this.warden = warden;
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
            return target.inScope(warden.scope()) ? new ClassicExchange(warden, request, target, scope, chain) : null;
        });
        // Outside the guard: what the rest of the chain throws is the app's, and it happens once.
        return call == null ? chain.proceed(request, scope) : call.run();
    }

    @Override
    public String toString() {
        return "ApiWardenExecChainHandler";
    }
}
