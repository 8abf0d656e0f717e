package io.apiwarden.clients.huc.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.HttpUrlConnectionFace;
import io.apiwarden.core.Warden;

/** The adapter contract for the JDK's {@code HttpURLConnection}, opened in library mode; cancelled with {@code disconnect()}. */
class HttpUrlConnectionContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new HttpUrlConnectionFace(url -> WardenHttpUrlConnection.open(url, warden), followRedirects);
    }
}
