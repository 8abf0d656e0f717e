package io.apiwarden.vertx5it;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.VertxFace;
import io.apiwarden.clients.vertx.library.WardenVertxHttp;
import io.apiwarden.core.Warden;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientAgent;

/**
 * The adapter contract for Vert.x 5's {@code HttpClient} in library mode ({@code WardenVertxHttp} on 5), its waits
 * on the test's timer. The face is the agent's own {@link VertxFace}, its source compiled here against Vert.x 5
 * (this module's pom): one face, both lines.
 */
class Vertx5ContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        Vertx vertx = Vertx.vertx();
        HttpClientAgent client = vertx.createHttpClient();
        return new VertxFace(
                vertx, WardenVertxHttp.create(warden, warden.scheduler()).manage(client), followRedirects);
    }
}
