package io.apiwarden.core.telemetry;

import java.net.URI;

/**
 * What the managed calls tell the outside world: spans and metrics. The call loops speak only
 * to this interface; {@link #NOOP} stands in when tracing and metrics are off.
 */
public interface Telemetry {
    /** Records nothing. */
    Telemetry NOOP = new Telemetry() {
        @Override
        public CallObserver call(String method, String url, String host, int port) {
            return CallObserver.NOOP;
        }

        @Override
        public RefreshObserver refresh(URI tokenUrl) {
            return RefreshObserver.NOOP;
        }
    };

    /**
     * Starts observing one logical managed call, in the app's current trace context.
     *
     * @param url the full URL as the app asked for it; the implementation redacts query values
     * @param port the port, or -1 for the scheme's default
     */
    CallObserver call(String method, String url, String host, int port);

    /** Starts observing one token refresh (which may take several requests). */
    RefreshObserver refresh(URI tokenUrl);

    /**
     * As {@link #refresh(URI)}, for tokens obtained by {@code grant} ({@code refresh_token},
     * {@code client_credentials}), which the meters and spans then name.
     */
    default RefreshObserver refresh(URI tokenUrl, String grant) {
        return refresh(tokenUrl);
    }

    /** The telemetry of the API named {@code api}: its spans and meters name it. */
    default Telemetry forApi(String api) {
        return this;
    }

    /**
     * Another JVM of the fleet met the global rate limit, which holds for {@code window} more: this
     * JVM's calls are held back too, though none of them was refused.
     */
    default void fleetWindowHeard(java.time.Duration window) {}
}
