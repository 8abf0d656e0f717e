package io.apiwarden.core.telemetry.jfr;

import io.apiwarden.core.call.Decision;
import io.apiwarden.core.classify.Verdict;
import io.apiwarden.core.telemetry.AttemptObserver;
import io.apiwarden.core.telemetry.CallObserver;
import io.apiwarden.core.telemetry.Scope;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/** One managed call observed while a recording may be on: the inner observer's, plus the JFR events. */
final class JfrCall implements CallObserver {
    private final CallObserver inner;
    private final String api;
    private final String method;
    private final String host;
    private int attempts;

    JfrCall(CallObserver inner, String api, String method, String host) {
        this.inner = inner;
        this.api = api;
        this.method = method;
        this.host = host;
    }

    @Override
    public Scope current() {
        return inner.current();
    }

    @Override
    public AttemptObserver attempt(boolean expectContinue) {
        return new Attempt(inner.attempt(expectContinue), attempts++);
    }

    @Override
    public void gateWaited(Duration waited, boolean first) {
        try {
            inner.gateWaited(waited, first);
        } finally {
            JfrEvents.waited(api, method, host, "gate", first ? "first" : "behind", waited);
        }
    }

    @Override
    public void gateClosed(Duration window) {
        try {
            inner.gateClosed(window);
        } finally {
            JfrEvents.gateClosed(api, host, "answer", window);
        }
    }

    @Override
    public void tokenScheme(String scheme) {
        inner.tokenScheme(scheme);
    }

    @Override
    public void end(int status, Verdict verdict, Throwable failure) {
        inner.end(status, verdict, failure);
    }

    /** One attempt: a resend, and a back-off before it, are decided on its answer. */
    private final class Attempt implements AttemptObserver {
        private final AttemptObserver inner;
        private final int number;

        Attempt(AttemptObserver inner, int number) {
            this.inner = inner;
            this.number = number;
        }

        @Override
        public Scope onTheWire() {
            return inner.onTheWire();
        }

        @Override
        public void inject(BiConsumer<String, String> setHeader) {
            inner.inject(setHeader);
        }

        @Override
        public void response(
                int status, String protocolVersion, Function<String, List<String>> headers, Verdict verdict) {
            inner.response(status, protocolVersion, headers, verdict);
        }

        @Override
        public void decided(Decision decision, String retryAfter) {
            try {
                inner.decided(decision, retryAfter);
            } finally {
                if (decision.resendsWithNonce()) {
                    // At once, with the nonce the API asked for: neither a refresh nor a back-off.
                    JfrEvents.resend(api, method, host, "use_dpop_nonce", number + 1);
                } else if (decision.action() == Decision.Action.REFRESH_AND_RESEND) {
                    JfrEvents.resend(api, method, host, "invalid_token", number + 1);
                } else if (decision.action() == Decision.Action.WAIT_AND_RESEND) {
                    JfrEvents.waited(api, method, host, "backoff", decision.reason(), decision.delay());
                    JfrEvents.resend(api, method, host, "global_rate_limit", number + 1);
                }
            }
        }

        @Override
        public void failed(Throwable failure) {
            inner.failed(failure);
        }
    }
}
