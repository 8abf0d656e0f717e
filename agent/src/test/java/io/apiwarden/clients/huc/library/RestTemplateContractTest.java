package io.apiwarden.clients.huc.library;

import io.apiwarden.adapters.ClientAdapterContract;
import io.apiwarden.adapters.ClientFace;
import io.apiwarden.adapters.faces.RestTemplateFace;
import io.apiwarden.core.Warden;
import org.springframework.web.client.RestTemplate;

/**
 * The adapter contract for Spring's {@code RestTemplate} on its default {@code SimpleClientHttpRequestFactory}, in
 * library mode: the factory's {@code openConnection} hands Spring {@code WardenHttpUrlConnection.open}'s connection.
 */
class RestTemplateContractTest extends ClientAdapterContract {
    @Override
    protected ClientFace face(Warden warden, boolean followRedirects) {
        return new RestTemplateFace(new RestTemplate(
                RestTemplateFace.requestFactory(followRedirects, url -> WardenHttpUrlConnection.open(url, warden))));
    }
}
