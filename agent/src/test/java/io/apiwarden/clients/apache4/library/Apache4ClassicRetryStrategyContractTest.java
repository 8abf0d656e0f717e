package io.apiwarden.clients.apache4.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.Apache4ClassicFace;
import io.apiwarden.core.Warden;

/**
 * The adapter contract for Apache HttpClient 4 with an app's retry strategy that sends a 429 again: the
 * client's resend, above the agent's step, continues the same managed call (one more send, no second
 * back-off or refresh).
 */
class Apache4ClassicRetryStrategyContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new Apache4ClassicFace(
                Apache4ClassicFace.retryingARateLimitOnce(Apache4ClassicFace.configure(
                                WardenApacheHttp4.create(warden).builder(), followRedirects))
                        .build(),
                1);
    }
}
