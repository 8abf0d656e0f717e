package io.apiwarden.core.telemetry;

/** One token refresh. Never given a token. */
public interface RefreshObserver {
    /** Observes nothing. A class, not a lambda: it is first used on the first call's way, where a lambda spins one. */
    RefreshObserver NOOP = new RefreshObserver() {
        @Override
        public void end(String result) {}
    };

    /**
     * Ends the refresh.
     *
     * @param result {@code success}, {@code adopted} (no token request: another JVM's newer token
     *     was taken from the store), {@code failed} (may heal) or {@code refused} (permanent)
     */
    void end(String result);

    /**
     * Something happened on the way that a shared token store explains: {@code adopted} (another
     * JVM's refresh was taken from the store), {@code lease_wait} (another JVM held the right to
     * refresh), {@code store_unavailable} (the store did not answer; this JVM refreshed alone).
     */
    default void event(String name) {}
}
