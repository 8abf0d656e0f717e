package io.apiwarden.clients.ktor.library;

import io.ktor.client.engine.HttpClientEngine;
import io.ktor.client.engine.HttpClientEngineCapability;
import io.ktor.client.engine.HttpClientEngineConfig;
import io.ktor.client.request.HttpRequestData;
import io.ktor.client.request.HttpResponseData;
import java.io.IOException;
import java.util.Set;
import kotlin.coroutines.Continuation;
import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.CoroutineDispatcher;

/**
 * A CIO engine managed in library mode: the engine itself in every way, but {@code execute}, which goes through
 * {@link WardenKtor#execute}. Ktor's own {@code install} (the interface's) runs on this object, so its call context
 * is built on the engine's scope, which this shares.
 */
final class ManagedEngine implements HttpClientEngine {
    private final HttpClientEngine engine;
    private final WardenKtor warden;

    ManagedEngine(HttpClientEngine engine, WardenKtor warden) {
        this.engine = engine;
        this.warden = warden;
    }

    @Override
    public Object execute(HttpRequestData data, Continuation<? super HttpResponseData> continuation) {
        Object managed = warden.execute(engine, data, continuation);
        return managed != null ? managed : engine.execute(data, continuation);
    }

    @Override
    public CoroutineDispatcher getDispatcher() {
        return engine.getDispatcher();
    }

    @Override
    public HttpClientEngineConfig getConfig() {
        return engine.getConfig();
    }

    @Override
    public Set<HttpClientEngineCapability<?>> getSupportedCapabilities() {
        return engine.getSupportedCapabilities();
    }

    @Override
    public CoroutineContext getCoroutineContext() {
        return engine.getCoroutineContext();
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }

    @Override
    public String toString() {
        return "managed " + engine;
    }
}
