package io.apiwarden.clients.okhttp.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.OkHttpFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for OkHttp's {@code enqueue}, in library mode: {@code WardenOkHttp} stands for the woven {@code enqueue} and {@code cancel}. */
class OkHttpEnqueueContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        WardenOkHttp okHttp = WardenOkHttp.create(warden);
        return OkHttpFaces.enqueue(
                okHttp.manage(OkHttpFaces.builder(followRedirects)).build(),
                new OkHttpFaces.CallMethods(okHttp::enqueue, okHttp::cancel));
    }
}
