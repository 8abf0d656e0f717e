package io.apiwarden.clients.reactornetty.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.ReactorNettyFace;
import io.apiwarden.core.Warden;
import java.time.Duration;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The adapter contract for Reactor Netty. It has no library mode: the glue is put in each request's way
 * through {@code mapConnect} where the agent weaves {@code connect()}, and its observer on the client
 * where the agent appends it to the default one; waits go on the test's timer, not Reactor's.
 */
class ReactorNettyContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        ReactorNettyGlue glue = new ReactorNettyGlue(
                warden,
                warden.scheduler(),
                task -> Schedulers.parallel().schedule(task),
                ReactorNettyGlue.SPRING_BODY_FUNCTIONS);
        ConnectionProvider pool = ConnectionProvider.builder("contract")
                .maxConnections(64)
                .pendingAcquireMaxCount(-1)
                .build();
        HttpClient client =
                HttpClient.create(pool).followRedirect(followRedirects).observe(AttemptHeadersObserver.INSTANCE);
        return new ReactorNettyFace(
                client,
                request -> request.mapConnect(connect -> glue.manage(request, connect)),
                () -> pool.disposeLater().block(Duration.ofSeconds(10)));
    }

    @Override
    protected String cannot(Capability capability) {
        if (capability == Capability.RESEND_STREAMED_BODY) {
            return ReactorNettyFace.STREAMED_BODY_NOT_RESENT;
        }
        return null;
    }
}
