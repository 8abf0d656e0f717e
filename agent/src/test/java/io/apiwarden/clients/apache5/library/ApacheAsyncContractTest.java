package io.apiwarden.clients.apache5.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.ApacheAsyncFace;
import io.apiwarden.core.Warden;

/** The adapter contract for Apache HttpClient 5's async {@code execute}: cancelled with the returned future. */
class ApacheAsyncContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new ApacheAsyncFace(WardenApacheHttp.create(warden)
                .manage(ApacheAsyncFace.builder(followRedirects))
                .build());
    }
}
