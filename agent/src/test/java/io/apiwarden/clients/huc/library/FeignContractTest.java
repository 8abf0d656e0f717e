package io.apiwarden.clients.huc.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.FeignFace;
import io.apiwarden.core.Warden;

/**
 * The adapter contract for OpenFeign's default client, in library mode: the default client's
 * {@code getConnection} hands Feign {@code WardenHttpUrlConnection.open}'s connection.
 */
class FeignContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new FeignFace(
                FeignFace.defaultClient(url -> WardenHttpUrlConnection.open(url, warden)), followRedirects);
    }
}
