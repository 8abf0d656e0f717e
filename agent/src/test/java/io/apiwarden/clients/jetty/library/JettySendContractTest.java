package io.apiwarden.clients.jetty.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.JettyFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for Jetty 12's blocking {@code send()}: cancelled with the request's {@code abort(cause)}. */
class JettySendContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) throws Exception {
        return JettyFaces.send(JettyFaces.started(WardenJettyHttp.create(warden).newHttpClient(), followRedirects));
    }
}
