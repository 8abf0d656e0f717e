package io.apiwarden.clients.ktor.library;

import io.apiwarden.clients.ktor.bridge.KtorBridge;
import io.apiwarden.core.Wardens;
import io.ktor.client.engine.HttpClientEngine;
import io.ktor.client.request.HttpRequestData;
import io.ktor.client.request.HttpResponseData;
import kotlin.coroutines.Continuation;

/**
 * The agent's entry into one copy of Ktor: the call woven into the CIO engine's {@code execute}, passed on to
 * {@link WardenKtor}. Defined by the agent in a class loader whose parent is Ktor's own, so that it links to the
 * app's copy whatever loader that is.
 */
public final class KtorGlue implements KtorBridge {
    private final WardenKtor ktor;

    public KtorGlue(Wardens wardens) {
        this.ktor = WardenKtor.create(wardens);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object execute(Object engine, Object request, Object continuation) {
        return ktor.execute(
                (HttpClientEngine) engine, (HttpRequestData) request, (Continuation<? super HttpResponseData>)
                        continuation);
    }
}
