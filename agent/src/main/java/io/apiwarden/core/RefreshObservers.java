package io.apiwarden.core;

import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Telemetry;
import java.net.URI;
import java.util.function.Supplier;

/**
 * Each token refresh's observer, none without a token URL: a class, not a lambda, which would cost a class spun as
 * the app's first call wires its API ({@link Warden}).
 */
final class RefreshObservers implements Supplier<RefreshObserver> {
    private final Telemetry telemetry;
    private final URI tokenUrl;
    private final String grantType;

    RefreshObservers(Telemetry telemetry, URI tokenUrl, String grantType) {
        this.telemetry = telemetry;
        this.tokenUrl = tokenUrl;
        this.grantType = grantType;
    }

    @Override
    public RefreshObserver get() {
        return tokenUrl == null ? RefreshObserver.NOOP : telemetry.refresh(tokenUrl, grantType);
    }
}
