package io.apiwarden.clients.ktor.bridge;

/**
 * What the agent asks of its Ktor glue. The glue is compiled against Ktor's client and CIO engine and defined once
 * per class loader Ktor lives in; this interface, loaded once by the agent's loader, lets the agent call every copy
 * without reflection.
 */
public interface KtorBridge {
    /**
     * At the start of the CIO engine's {@code execute(HttpRequestData, Continuation)}: what the method is to return
     * instead (the managed call's {@code COROUTINE_SUSPENDED} or response), or null to let it run as it is.
     */
    Object execute(Object engine, Object request, Object continuation);
}
