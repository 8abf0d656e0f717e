package io.apiwarden.it.apps;

import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.ReactorNettyFace;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import java.time.Duration;

/** Reactor Netty's face as an app makes it: nothing of the agent's, which weaves the client itself. */
final class ReactorNettyFaces {
    private ReactorNettyFaces() {
    }

    static ClientFace plain(boolean followRedirects) {
        ConnectionProvider pool = ConnectionProvider.builder("suite").maxConnections(64).pendingAcquireMaxCount(-1).build();
        return new ReactorNettyFace(HttpClient.create(pool).followRedirect(followRedirects), request -> request,
                () -> pool.disposeLater().block(Duration.ofSeconds(10)));
    }
}
