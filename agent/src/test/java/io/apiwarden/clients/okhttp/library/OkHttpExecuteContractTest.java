package io.apiwarden.clients.okhttp.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.OkHttpFaces;
import io.apiwarden.core.Warden;

/** The adapter contract for OkHttp's {@code execute}, in library mode: {@code WardenOkHttp} stands for the woven {@code cancel()}. */
class OkHttpExecuteContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        WardenOkHttp okHttp = WardenOkHttp.create(warden);
        return OkHttpFaces.execute(
                okHttp.manage(OkHttpFaces.builder(followRedirects)).build(),
                new OkHttpFaces.CallMethods(okHttp::enqueue, okHttp::cancel));
    }
}
