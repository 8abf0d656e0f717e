package io.apiwarden.clients.micronaut.library;

import io.apiwarden.clients.micronaut.bridge.MicronautBridge;
import io.apiwarden.core.Wardens;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.netty.DefaultHttpClient;
import io.micronaut.http.filter.GenericHttpFilter;
import java.util.List;

/**
 * The agent's entry into one copy of Micronaut's HTTP client: the call woven into {@code DefaultHttpClient}, passed
 * on to {@link WardenMicronautHttp}. Defined by the agent in a class loader whose parent is Micronaut's own, so that
 * it links to the app's copy whatever loader that is.
 */
public final class MicronautGlue implements MicronautBridge {
    private final WardenMicronautHttp micronaut;

    public MicronautGlue(Wardens wardens) {
        this.micronaut = WardenMicronautHttp.create(wardens);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<?> filters(List<?> resolved, Object client, Object propagatedContext, Object request) {
        return micronaut.filters(
                (List<GenericHttpFilter>) resolved,
                (DefaultHttpClient) client,
                (PropagatedContext) propagatedContext,
                (HttpRequest<?>) request);
    }
}
