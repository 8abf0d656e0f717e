package io.apiwarden.core.engine;

import io.apiwarden.core.log.AgentLog;
import java.util.function.Supplier;

/**
 * The one guard every adapter puts around taking a request on. Only the opening of a managed call
 * is guarded: the caller then runs the call, or passes the request on untouched, outside it, so
 * that what the client's own chain throws is the app's, and happens once.
 */
public final class EntryGuard {
    private EntryGuard() {}

    /**
     * The managed call {@code open} makes, or null to let the request go out as without the agent:
     * when {@code open} answers null (the request is outside the API) or fails. A failure of the
     * agent's own is logged once under {@code logKey}, naming the call as {@code what} ("an OkHttp
     * call"), and never reaches the app. An {@link Error} is not the agent's to hide and goes on.
     */
    public static <C> C open(String logKey, String what, Supplier<C> open) {
        try {
            return open.get();
        } catch (RuntimeException e) {
            return failed(logKey, what, e);
        }
    }

    /**
     * {@link #open}'s answer to a failure, for an adapter that opens its call in its own {@code try} (no lambda on every
     * call's way): logs it once and answers null.
     */
    public static <C> C failed(String logKey, String what, RuntimeException e) {
        AgentLog.once(AgentLog.Level.WARN, logKey, what + " could not be managed; it goes out as without the agent", e);
        return null;
    }
}
