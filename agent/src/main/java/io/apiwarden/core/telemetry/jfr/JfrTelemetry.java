package io.apiwarden.core.telemetry.jfr;

import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Telemetry;
import java.net.URI;
import java.time.Duration;

/**
 * Adds JFR events to an API's telemetry (spans and meters, or none): a token refresh, a resend, a wait and a
 * gate closing, at the very moments the spans and meters record them, so that {@code jcmd <pid> JFR.start}
 * tells why a call was slow on a JVM with no collector at all. Until the JVM's first recording, a call goes
 * straight to the inner telemetry: no wrapper, no event object, no JFR class but {@code jdk.jfr.FlightRecorder}.
 * From the first recording on ({@code FlightRecorder.isInitialized()} stays true), each call and attempt gets a
 * small wrapper, and an event is built only when its type is enabled. Made per API in {@code Warden}, after the
 * API's name is known: no {@code forApi} of its own.
 */
public final class JfrTelemetry implements Telemetry {
    private final Telemetry inner;
    private final String api;
    private final String grant;
    /** The host of the API's base URL, for the windows another JVM announces. */
    private final String apiHost;

    private JfrTelemetry(Telemetry inner, String api, String grant, String apiHost) {
        this.inner = inner;
        this.api = api;
        this.grant = grant;
        this.apiHost = apiHost;
    }

    /**
     * {@code inner} with JFR events for the API {@code api}, whose tokens come by {@code grant}; {@code inner}
     * itself on a runtime without the jdk.jfr module (a trimmed image).
     */
    public static Telemetry around(Telemetry inner, String api, String grant, String apiHost) {
        if (inner instanceof JfrTelemetry
                || ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
            return inner;
        }
        return new JfrTelemetry(inner, api, grant, apiHost);
    }

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        CallObserver call = inner.call(method, url, host, port);
        return JfrEvents.mayRecord() ? new JfrCall(call, api, method, host) : call;
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl) {
        return refresh(tokenUrl, grant);
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl, String grant) {
        RefreshObserver refresh = inner.refresh(tokenUrl, grant);
        TokenRefreshEvent event = JfrEvents.refreshBegun();
        if (event == null) {
            return refresh;
        }
        String tokenHost = tokenUrl.getHost();
        return new RefreshObserver() {
            private volatile boolean adopted;

            @Override
            public void end(String result) {
                try {
                    refresh.end(result);
                } finally {
                    JfrEvents.refreshEnded(event, api, grant, tokenHost, result, adopted);
                }
            }

            @Override
            public void event(String name) {
                if (name.equals("adopted")) {
                    adopted = true;
                }
                refresh.event(name);
            }
        };
    }

    @Override
    public void fleetWindowHeard(Duration window) {
        try {
            inner.fleetWindowHeard(window);
        } finally {
            JfrEvents.gateClosed(api, apiHost, "fleet", window);
        }
    }
}
