package io.apiwarden.clients.micronaut.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.MicronautFace;
import io.apiwarden.core.Warden;

/**
 * The adapter contract for Micronaut's HTTP client in library mode: a client built without a context, managed with
 * {@code WardenMicronautHttp.manage}, its waits on the test's timer.
 */
class MicronautContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new MicronautFace(WardenMicronautHttp.create(warden).manage(MicronautFace.plainClient(followRedirects)));
    }

    @Override
    protected String cannot(Capability capability) {
        if (capability == Capability.RESEND_STREAMED_BODY) {
            return MicronautFace.STREAMED_BODY_NOT_RESENT;
        }
        return null;
    }
}
