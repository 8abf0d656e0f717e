package io.apiwarden.clients.apache4.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.Apache4ClassicFace;
import io.apiwarden.core.Warden;

/** The adapter contract for Apache HttpClient 4's classic {@code execute}: cancelled with the request's {@code abort()}. */
class Apache4ClassicContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new Apache4ClassicFace(
                Apache4ClassicFace.configure(WardenApacheHttp4.create(warden).builder(), followRedirects)
                        .build());
    }
}
