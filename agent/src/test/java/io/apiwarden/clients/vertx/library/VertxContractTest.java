package io.apiwarden.clients.vertx.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.VertxFace;
import io.apiwarden.core.Warden;
import io.vertx.core.Vertx;

/** The adapter contract for Vert.x core's {@code HttpClient} in library mode, its waits on the test's timer. */
class VertxContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        Vertx vertx = Vertx.vertx();
        return new VertxFace(
                vertx,
                WardenVertxHttp.create(warden, warden.scheduler()).manage(vertx.createHttpClient()),
                followRedirects);
    }
}
