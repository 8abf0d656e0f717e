package io.apiwarden.clients.ktor.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.KtorFace;
import io.apiwarden.core.Warden;

/**
 * The adapter contract for Ktor's client on its CIO engine in library mode: the engine managed with {@code
 * WardenKtor.manage}, its waits on the test's timer.
 */
class KtorContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return KtorFace.on(WardenKtor.create(warden).manage(KtorFace.cioEngine()), followRedirects);
    }

    @Override
    protected String cannot(Capability capability) {
        return capability == Capability.RESEND_STREAMED_BODY ? KtorFace.STREAMED_BODY_NOT_RESENT : null;
    }
}
