package io.apiwarden.core.telemetry;

/** One token refresh. Never given a token. */
public interface RefreshObserver {
    RefreshObserver NOOP = result -> { };

    /**
     * Ends the refresh.
     *
     * @param result {@code success}, {@code failed} (may heal) or {@code refused} (permanent)
     */
    void end(String result);
}
