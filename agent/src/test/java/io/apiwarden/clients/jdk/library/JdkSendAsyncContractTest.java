package io.apiwarden.clients.jdk.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.JdkFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for the JDK client's {@code sendAsync}: cancelled through its future. */
class JdkSendAsyncContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return JdkFaces.sendAsync(
                WardenHttpClient.wrap(JdkFaces.builder(followRedirects).build(), warden));
    }
}
