package io.apiwarden.clients.apache5.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.ApacheClassicFace;
import io.apiwarden.core.Warden;

/** The adapter contract for Apache HttpClient 5's classic {@code execute}: cancelled with the request's {@code cancel()}. */
class ApacheClassicContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new ApacheClassicFace(WardenApacheHttp.create(warden)
                .manage(ApacheClassicFace.builder(followRedirects))
                .build());
    }
}
