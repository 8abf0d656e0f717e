package io.apiwarden.core.call;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Requests that the API refused again right after a refresh, for the token generation that was
 * refused: evidence that the refusal is about the token's rights ("insufficient permissions",
 * which the spec folds into "OAuth invalid token"), not its age. Later calls to the same
 * resource with the same token generation go to the app without a refresh each.
 *
 * <p>Bounded: at most {@link #MAX_REQUESTS} method-and-path keys, the least recently refused
 * forgotten first, and all of them forgotten when the token generation changes (a new token
 * may have other rights).
 */
final class RefusalMemory {
    /**
     * A service touches far fewer resources it may not; beyond this the oldest is dropped and costs
     * at most one more refresh when it is refused again.
     */
    static final int MAX_REQUESTS = 256;

    private final Map<String, Boolean> refused = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MAX_REQUESTS;
        }
    };
    private long generation = -1;

    /** Remembers that {@code requestKey} was refused with token generation {@code tokenGeneration} right after a refresh. */
    synchronized void remember(String requestKey, long tokenGeneration) {
        if (tokenGeneration != generation) {
            refused.clear();
            generation = tokenGeneration;
        }
        refused.put(requestKey, Boolean.TRUE);
    }

    /** Whether {@code requestKey} was refused for its rights with this very token generation. */
    synchronized boolean refusedForRights(String requestKey, long tokenGeneration) {
        return tokenGeneration == generation && refused.get(requestKey) != null;
    }

    synchronized int size() {
        return refused.size();
    }
}
