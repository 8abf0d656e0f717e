package io.apiwarden.core.telemetry;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** One physical attempt of a managed call: a request on the wire and its response. */
public interface AttemptObserver {
    AttemptObserver NOOP = new AttemptObserver() {
        @Override
        public void inject(BiConsumer<String, String> setHeader) {}

        @Override
        public void response(
                int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict) {}

        @Override
        public void decided(Decision decision, String retryAfter) {}

        @Override
        public void failed(Throwable failure) {}

        @Override
        public Scope onTheWire() {
            return Scope.NONE;
        }
    };

    /**
     * Makes the attempt's span the app's current one (the app's own OpenTelemetry, or the
     * OpenTelemetry Java agent's) while the request is handed to the HTTP client, so that another
     * agent's client span nests under it in the same trace.
     */
    Scope onTheWire();

    /** Sets the headers that carry the trace context (W3C {@code traceparent}) on the attempt's request. */
    void inject(BiConsumer<String, String> setHeader);

    /**
     * The attempt's response arrived.
     *
     * @param headers the values of a response header, any case of its name
     */
    void response(int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict);

    /** What the agent does next because of this response (a resend records why and, for a wait, how long); ends the attempt. */
    void decided(Decision decision, String retryAfter);

    /** The attempt failed without a response; ends the attempt. */
    void failed(Throwable failure);
}
