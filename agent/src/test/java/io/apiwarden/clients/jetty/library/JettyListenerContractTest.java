package io.apiwarden.clients.jetty.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.JettyFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for Jetty 12's {@code send(listener)}: cancelled with the request's {@code abort(cause)}. */
class JettyListenerContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) throws Exception {
        return JettyFaces.listener(
                JettyFaces.started(WardenJettyHttp.create(warden).newHttpClient(), followRedirects));
    }
}
