package io.apiwarden.testing;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.RefreshObserver;
import io.apiwarden.core.telemetry.Scope;
import io.apiwarden.core.telemetry.Telemetry;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** Records what the engine tells telemetry, as text: the decision of each attempt and how each call ended. */
public final class RecordingTelemetry implements Telemetry {
    public final List<String> decisions = new CopyOnWriteArrayList<>();
    public final List<String> ended = new CopyOnWriteArrayList<>();
    /** The failure of each attempt that ended with no answer, by its class's simple name. */
    public final List<String> attemptsFailed = new CopyOnWriteArrayList<>();
    /** The window of each closing of the throttle gate an answer caused. */
    public final List<Duration> gateClosings = new CopyOnWriteArrayList<>();

    @Override
    public CallObserver call(String method, String url, String host, int port) {
        return new CallObserver() {
            @Override
            public Scope current() {
                return Scope.NONE;
            }

            @Override
            public AttemptObserver attempt(boolean expectContinue) {
                return new AttemptObserver() {
                    @Override
                    public Scope onTheWire() {
                        return Scope.NONE;
                    }

                    @Override
                    public void inject(BiConsumer<String, String> setHeader) {}

                    @Override
                    public void response(
                            int status,
                            String protocolVersion,
                            Function<String, List<String>> headers,
                            Verdict verdict) {}

                    @Override
                    public void decided(Decision decision, String retryAfter) {
                        decisions.add(
                                decision.action() == Decision.Action.RETURN && decision.reason() != null
                                        ? "RETURN " + decision.reason()
                                        : decision.action().name());
                    }

                    @Override
                    public void failed(Throwable failure) {
                        attemptsFailed.add(failure.getClass().getSimpleName());
                    }
                };
            }

            @Override
            public void gateClosed(Duration window) {
                gateClosings.add(window);
            }

            @Override
            public void end(int status, Verdict verdict, Throwable failure) {
                ended.add(failure != null ? "failed " + failure.getClass().getSimpleName() : status + " " + verdict);
            }
        };
    }

    @Override
    public RefreshObserver refresh(URI tokenUrl) {
        return RefreshObserver.NOOP;
    }
}
