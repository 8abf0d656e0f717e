package io.apiwarden.clients.apache5.library;

import io.apiwarden.core.call.CallState;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * What a run of a request has used up (refreshes, rate-limit retries), kept in the execution's
 * context. The client's own retry handler sits above the agent's and may send the request again (a
 * 429 the agent gave up on, an I/O failure): that is the same logical call, so it goes on from what
 * the earlier run used up and never gets a second back-off or refresh. The key (the execution, the
 * request's method and URL) tells such a resend from a redirect's next hop and from the app's next
 * call with the same context.
 */
final class EarlierRun {
    private static final String ATTRIBUTE = "io.apiwarden.clients.apache5.library.earlier-run";

    private final String key;
    private final CallState state;

    private EarlierRun(String key, CallState state) {
        this.key = key;
        this.state = state;
    }

    /** The key of a run: the client's execution, the request's method, its URL. */
    static String key(String exchangeId, String method, String url) {
        return exchangeId + " " + method + " " + url;
    }

    /**
     * Makes {@code state} continue the earlier run of the same request in {@code context}, if there
     * was one, and leaves it there for the next. The state is live: what the run uses up later is
     * seen by a resend that comes after it.
     */
    static void carryOver(HttpContext context, String key, CallState state) {
        Object earlier = context.getAttribute(ATTRIBUTE);
        if (earlier instanceof EarlierRun && ((EarlierRun) earlier).key.equals(key)) {
            state.continues(((EarlierRun) earlier).state);
        }
        context.setAttribute(ATTRIBUTE, new EarlierRun(key, state));
    }
}
