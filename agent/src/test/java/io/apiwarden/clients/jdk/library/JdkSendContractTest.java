package io.apiwarden.clients.jdk.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.JdkFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for the JDK client's {@code send}: cancelled by interrupting the caller. */
class JdkSendContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return JdkFaces.send(
                WardenHttpClient.wrap(JdkFaces.builder(followRedirects).build(), warden));
    }
}
