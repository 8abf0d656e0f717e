package io.apiwarden.clients.huc.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.GoogleHttpFace;
import io.apiwarden.core.Warden;

/**
 * The adapter contract for google-http-client's {@code NetHttpTransport}, in library mode: the transport's
 * {@code ConnectionFactory} hands it {@code WardenHttpUrlConnection.open}'s connection.
 */
class GoogleHttpContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new GoogleHttpFace(
                GoogleHttpFace.transport(url -> WardenHttpUrlConnection.open(url, warden)), followRedirects);
    }
}
